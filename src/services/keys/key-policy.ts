import { BlockList, isIP } from 'node:net';
import { forbidden } from '../../errors/errors.js';
import type { KeyPolicy, KeyRecord } from '../../stores/types.js';

/**
 * A model allowlist entry: a model code, or a pattern where `*` stands for any run of characters
 * (`gen-4.5*`). Other characters are literal.
 */
export const MODEL_PATTERN = '^[A-Za-z0-9._:/@-]*\\*?[A-Za-z0-9._:/@*-]*$';

/** True when `model` is on the list (an empty or absent list allows every model). */
export function modelAllowed(patterns: readonly string[] | undefined, model: string): boolean {
  if (patterns === undefined || patterns.length === 0) return true;
  return patterns.some((p) => (p.includes('*') ? globMatches(p, model) : p === model));
}

function globMatches(pattern: string, value: string): boolean {
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!value.startsWith(first) || value.length < first.length + last.length || !value.endsWith(last)) return false;
  // Middle parts in order, each after the previous one, between the fixed start and end.
  let at = first.length;
  const end = value.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = value.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** The allowed models of two lists together (an account's and its key's): both must allow it. */
export const modelAllowedByAll = (lists: readonly (readonly string[] | undefined)[], model: string): boolean =>
  lists.every((list) => modelAllowed(list, model));

/** A CIDR (`10.0.0.0/8`, `2001:db8::/32`) or a single address; the rule it breaks, or undefined. */
export function cidrProblem(cidr: string): string | undefined {
  const [address, prefix, extra] = cidr.split('/');
  const family = isIP(address ?? '');
  if (extra !== undefined || family === 0) return `${JSON.stringify(cidr)} is not an IPv4 or IPv6 address or CIDR`;
  if (prefix === undefined) return undefined;
  const bits = /^[0-9]{1,3}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) return `${JSON.stringify(cidr)} has an invalid prefix length`;
  return undefined;
}

const lists = new Map<string, BlockList>();

/** True when `address` is inside one of the CIDRs (an empty or absent list allows every address). */
export function addressAllowed(cidrs: readonly string[] | undefined, address: string | undefined): boolean {
  if (cidrs === undefined || cidrs.length === 0) return true;
  if (address === undefined) return false;
  const ip = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(ip);
  if (family === 0) return false;
  return blockList(cidrs).check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

function blockList(cidrs: readonly string[]): BlockList {
  const id = cidrs.join(',');
  let list = lists.get(id);
  if (list) return list;
  list = new BlockList();
  for (const cidr of cidrs) {
    if (cidrProblem(cidr) !== undefined) continue;
    const [address, prefix] = cidr.split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    list.addSubnet(address, prefix === undefined ? (type === 'ipv4' ? 32 : 128) : Number(prefix), type);
  }
  // Bounded: lists are few (one per distinct key setting); start again rather than grow.
  if (lists.size >= 1000) lists.clear();
  lists.set(id, list);
  return list;
}

/** True when the key has expired at `now` (Unix ms): refused from the exact instant of `expires_at`. */
export const expired = (policy: KeyPolicy | undefined, now: number): boolean =>
  policy?.expiresAt !== undefined && now >= policy.expiresAt;

/**
 * Refuses (1220, the live platform's "no permission for this model") a model that the key's
 * allowlist, or its account's (`accountModels`), leaves out.
 */
export function checkModel(key: KeyRecord, model: string, accountModels?: readonly string[], named = model): void {
  // A name that resolved to another code (a Claude name) is named with the code it calls.
  const which = named === model ? model : `${named} (served by ${model})`;
  if (!modelAllowed(key.policy?.models, model)) {
    throw forbidden(
      `This API key has no permission for model ${which}: it is limited to ${key.policy!.models!.join(', ')}`,
    );
  }
  if (!modelAllowed(accountModels, model)) {
    throw forbidden(
      `This API key has no permission for model ${which}: its account is limited to ${accountModels!.join(', ')}`,
    );
  }
}
