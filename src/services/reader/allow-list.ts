import { parseCidr } from './ip-ranges.js';

/**
 * The operator's list of hosts that may be reached although their addresses are private: a hostname
 * entry allows that name (or, as `*.example.com`, its subdomains) whatever it resolves to; an IP or
 * CIDR entry allows those addresses whichever name led to them.
 */
export interface AllowList {
  allowsHost(hostname: string): boolean;
  allowsAddress(address: string): boolean;
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
  return {
    allowsHost(hostname) {
      const host = hostname.toLowerCase().replace(/\.$/, '');
      return names.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
    },
    allowsAddress(address) {
      return cidrs.some((matches) => matches(address));
    },
  };
}
