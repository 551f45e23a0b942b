import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AllowList } from './allow-list.js';
import { blockedClass } from './ip-ranges.js';
import type { LookupFunction, ResolvedAddress } from './types.js';

/** Thrown when a host resolves to an address the reader may not reach. */
export class BlockedAddressError extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
    readonly addressClass: string,
  ) {
    super(
      hostname === address
        ? `${address} is in the ${addressClass} range`
        : `${hostname} resolves to ${address}, in the ${addressClass} range`,
    );
    this.name = 'BlockedAddressError';
  }
}

/** Thrown when DNS cannot resolve a host. */
export class DnsError extends Error {
  constructor(
    readonly hostname: string,
    cause: unknown,
  ) {
    super(`could not resolve host ${hostname}`, { cause });
    this.name = 'DnsError';
  }
}

export const systemLookup: LookupFunction = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family }));
};

/**
 * Resolves a hostname and checks every address it resolves to: one blocked address refuses the whole
 * host, because an attacker's DNS can answer a public and a private address and let the client pick.
 * The caller connects to the returned address, never re-resolving, so DNS rebinding has no window.
 */
export async function resolveGuarded(
  hostname: string,
  allowList: AllowList,
  lookup: LookupFunction,
): Promise<ResolvedAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  let addresses: ResolvedAddress[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await lookup(host);
    } catch (error) {
      throw new DnsError(host, error);
    }
    if (addresses.length === 0) throw new DnsError(host, new Error('no addresses'));
  }
  if (allowList.allowsHost(host)) return addresses;
  for (const { address } of addresses) {
    if (allowList.allowsAddress(address)) continue;
    const why = blockedClass(address);
    if (why) throw new BlockedAddressError(host, address, why);
  }
  return addresses;
}
