import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { AllowList } from './allow-list.js';
import { tierOf } from './ip-ranges.js';
import { NetError } from './net-error.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a hostname to all its addresses; injectable so tests can fake DNS. */
export type LookupFunction = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: LookupFunction = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family }));
};

/**
 * The refusal of a host: an IP literal is the client's own text and is named with its class; a
 * name is named with the class of what it resolves to, never with the address DNS answered.
 */
function blocked(host: string, address: string, label: string, literal: boolean): NetError {
  const what = literal ? `${address} is in the ${label} range` : `${host} resolves to an address in the ${label} range`;
  const rule =
    tierOf(label) === 'never'
      ? 'the server never fetches from these'
      : 'the server fetches from public addresses only, unless reader.allow_hosts allows one';
  return new NetError('blocked', `${what}; ${rule}`);
}

/**
 * Resolves a hostname and checks every address it resolves to: one refused address refuses the whole
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
      throw new NetError('dns', `DNS failure: could not resolve host ${host}`, {}, error);
    }
    if (addresses.length === 0) throw new NetError('dns', `DNS failure: could not resolve host ${host}`);
  }
  for (const { address } of addresses) {
    const label = allowList.refusal(host, address);
    if (label !== undefined) throw blocked(host, address, label, family !== 0);
  }
  return addresses;
}
