import { isIP } from 'node:net';

/**
 * Classifies an IP address that outbound fetches must not reach by default, naming the class for the
 * error message. Pure arithmetic on BigInt so that every textual form (compressed IPv6, mapped IPv4,
 * zone ids) is compared by value, not by spelling.
 */

interface Range {
  base: bigint;
  prefix: number;
  label: string;
}

const v4 = (text: string): bigint => {
  const parts = text.split('.').map(Number);
  return parts.reduce((acc, part) => (acc << 8n) | BigInt(part), 0n);
};

export function parseIPv6(text: string): bigint | undefined {
  let address = text.replace(/^\[|\]$/g, '');
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  if (isIP(address) !== 6) return undefined;
  // A trailing dotted IPv4 becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    const value = v4(dotted[1]);
    address = `${address.slice(0, -dotted[1].length)}${(value >> 16n).toString(16)}:${(value & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = address.split('::');
  const headParts = head ? head.split(':') : [];
  const tailParts = tail ? tail.split(':') : [];
  const missing = 8 - headParts.length - tailParts.length;
  const hextets = tail === undefined ? headParts : [...headParts, ...Array(missing).fill('0'), ...tailParts];
  return hextets.reduce((acc, part) => (acc << 16n) | BigInt(Number.parseInt(part || '0', 16)), 0n);
}

const range4 = (cidr: string, label: string): Range => {
  const [base = '', prefix = '32'] = cidr.split('/');
  return { base: v4(base), prefix: Number(prefix), label };
};
const range6 = (cidr: string, label: string): Range => {
  const [base = '', prefix = '128'] = cidr.split('/');
  return { base: parseIPv6(base) ?? 0n, prefix: Number(prefix), label };
};

// Most specific first: the metadata addresses sit inside link-local and unique-local ranges.
const IPV4_BLOCKED: Range[] = [
  range4('169.254.169.254/32', 'cloud metadata'),
  range4('169.254.170.2/32', 'cloud metadata'),
  range4('169.254.170.23/32', 'cloud metadata'),
  range4('100.100.100.200/32', 'cloud metadata'),
  // Azure's platform endpoint (wire server): a public address that only means something inside Azure.
  range4('168.63.129.16/32', 'cloud metadata'),
  range4('0.0.0.0/8', 'unspecified'),
  range4('10.0.0.0/8', 'private'),
  range4('100.64.0.0/10', 'carrier-grade NAT'),
  range4('127.0.0.0/8', 'loopback'),
  range4('169.254.0.0/16', 'link-local'),
  range4('172.16.0.0/12', 'private'),
  range4('192.0.0.0/24', 'reserved'),
  range4('192.0.2.0/24', 'reserved'),
  range4('192.88.99.0/24', 'reserved'),
  range4('192.168.0.0/16', 'private'),
  range4('198.18.0.0/15', 'reserved'),
  range4('198.51.100.0/24', 'reserved'),
  range4('203.0.113.0/24', 'reserved'),
  range4('224.0.0.0/4', 'multicast'),
  range4('255.255.255.255/32', 'broadcast'),
  range4('240.0.0.0/4', 'reserved'),
];

const IPV6_BLOCKED: Range[] = [
  range6('fd00:ec2::254/128', 'cloud metadata'),
  range6('::/128', 'unspecified'),
  range6('::1/128', 'loopback'),
  range6('64:ff9b:1::/48', 'reserved'),
  range6('100::/64', 'reserved'),
  range6('2001::/32', 'reserved'),
  range6('2001:db8::/32', 'reserved'),
  range6('fc00::/7', 'unique-local'),
  range6('fe80::/10', 'link-local'),
  range6('fec0::/10', 'site-local'),
  range6('ff00::/8', 'multicast'),
];

const inRange = (value: bigint, bits: number, range: Range): boolean =>
  value >> BigInt(bits - range.prefix) === range.base >> BigInt(bits - range.prefix);

const classify4 = (value: bigint): string | undefined => IPV4_BLOCKED.find((r) => inRange(value, 32, r))?.label;

/** Returns why the address is blocked (e.g. `private`, `loopback`), or undefined when it is public. */
export function blockedClass(address: string): string | undefined {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return classify4(v4(address));
  const value = parseIPv6(address);
  if (value === undefined) return 'unparsable';
  const high96 = value >> 32n;
  const low32 = value & 0xffffffffn;
  // IPv4 carried inside IPv6: judged as the IPv4 it reaches.
  if (high96 === 0xffffn) return classify4(low32) && `IPv4-mapped ${classify4(low32)}`;
  if (high96 === 0n && value > 1n) return classify4(low32) ? `IPv4-compatible ${classify4(low32)}` : 'reserved';
  if (high96 === 0x64ff9b0000000000000000n) return classify4(low32) && `NAT64 of ${classify4(low32)}`;
  if (value >> 112n === 0x2002n) {
    const embedded = (value >> 80n) & 0xffffffffn;
    if (classify4(embedded)) return `6to4 of ${classify4(embedded)}`;
  }
  return IPV6_BLOCKED.find((r) => inRange(value, 128, r))?.label;
}

/**
 * How far an operator's allow-list (allow-list.ts) can open a blocked class:
 * - `internal`: the networks an intranet lives on (private, loopback, carrier-grade NAT, unique-local,
 *   site-local): a hostname entry opens them for that name, an IP or CIDR entry for its addresses;
 * - `special`: link-local and reserved ranges: only an IP or CIDR entry that covers the address;
 * - `never`: cloud metadata endpoints, unspecified (0.0.0.0 reaches this host), multicast and
 *   broadcast: no entry opens them.
 * A class carried inside IPv6 (`IPv4-mapped loopback`, `NAT64 of private`, ...) is the class it reaches.
 */
export type AddressTier = 'internal' | 'special' | 'never';

const NEVER_CLASSES: ReadonlySet<string> = new Set([
  'cloud metadata',
  'unspecified',
  'multicast',
  'broadcast',
  'unparsable',
]);
const INTERNAL_CLASSES: ReadonlySet<string> = new Set([
  'loopback',
  'private',
  'carrier-grade NAT',
  'unique-local',
  'site-local',
]);

export function tierOf(label: string): AddressTier {
  const reached = label.replace(/^(IPv4-mapped |IPv4-compatible |NAT64 of |6to4 of )/, '');
  if (NEVER_CLASSES.has(reached)) return 'never';
  return INTERNAL_CLASSES.has(reached) ? 'internal' : 'special';
}

/** An IP or CIDR entry of the allow-list, as a predicate on addresses. */
export function parseCidr(entry: string): ((address: string) => boolean) | undefined {
  const [base = '', prefixText] = entry.split('/');
  const family = isIP(base.replace(/^\[|\]$/g, ''));
  if (family === 0) return undefined;
  const bits = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) return undefined;
  const range: Range = { base: family === 4 ? v4(base) : (parseIPv6(base) ?? 0n), prefix, label: 'allowed' };
  return (address: string) => {
    const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
    const addressFamily = isIP(plain);
    if (addressFamily === 4) return family === 4 ? inRange(v4(plain), 32, range) : false;
    const value = parseIPv6(plain);
    if (value === undefined) return false;
    if (family === 4) return value >> 32n === 0xffffn && inRange(value & 0xffffffffn, 32, range);
    return inRange(value, 128, range);
  };
}
