import { blockedClass, parseCidr, tierOf } from './ip-ranges.js';

/**
 * The operator's list of hosts that guarded fetches may reach although their addresses are not
 * public (`reader.allow_hosts`). What an entry opens, precisely:
 * - a hostname (`intranet.example`) or a suffix (`*.example.com`, its subdomains only): the
 *   `internal` classes (private, loopback, carrier-grade NAT, unique-local, site-local) for URLs
 *   with that host name. Link-local and reserved addresses stay refused for it, and so does every
 *   other name that resolves to the same address;
 * - an IP or a CIDR (`10.1.0.0/16`, `fd00:1::/64`): the addresses it covers, `internal` and
 *   `special` (link-local, reserved) classes alike, whichever host name led to them.
 * No entry opens the `never` classes: cloud metadata endpoints, unspecified, multicast, broadcast
 * (ip-ranges.ts).
 */
export interface AllowList {
  /** Why `address`, reached through `hostname`, is refused; undefined when it may be reached. */
  refusal(hostname: string, address: string): string | undefined;
}

export function createAllowList(entries: readonly string[] = []): AllowList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const cidrs: ((address: string) => boolean)[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const cidr = parseCidr(entry);
    if (cidr) cidrs.push(cidr);
    else if (entry.startsWith('*.')) suffixes.push(entry.slice(1));
    else names.add(entry.replace(/\.$/, ''));
  }
  const allowsHost = (hostname: string): boolean => {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    return names.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
  };
  return {
    refusal(hostname, address) {
      const label = blockedClass(address);
      if (label === undefined) return undefined;
      const tier = tierOf(label);
      if (tier === 'never') return label;
      if (cidrs.some((matches) => matches(address))) return undefined;
      if (tier === 'internal' && allowsHost(hostname)) return undefined;
      return label;
    },
  };
}
