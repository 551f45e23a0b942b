import { describe, expect, it } from 'vitest';
import { createAllowList } from '../../src/net/allow-list.js';
import { blockedClass, tierOf } from '../../src/net/ip-ranges.js';
import { NetError } from '../../src/net/net-error.js';
import { type LookupFunction, resolveGuarded } from '../../src/net/resolve.js';

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['64:ff9b::10.0.0.1', 'NAT64 of private'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of cloud metadata'],
    ['2002:7f00:1::', '6to4 of loopback'],
  ])('%s is %s', (address, label) => {
    expect(blockedClass(address)).toBe(label);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '64:ff9b::808:808', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(blockedClass(address)).toBeUndefined();
    },
  );
});

describe('tiers: what an allow-list entry can open', () => {
  it.each([
    ['loopback', 'internal'],
    ['private', 'internal'],
    ['carrier-grade NAT', 'internal'],
    ['unique-local', 'internal'],
    ['site-local', 'internal'],
    ['IPv4-mapped loopback', 'internal'],
    ['NAT64 of private', 'internal'],
    ['link-local', 'special'],
    ['reserved', 'special'],
    ['cloud metadata', 'never'],
    ['NAT64 of cloud metadata', 'never'],
    ['IPv4-mapped cloud metadata', 'never'],
    ['unspecified', 'never'],
    ['multicast', 'never'],
    ['broadcast', 'never'],
  ])('%s is %s', (label, tier) => {
    expect(tierOf(label)).toBe(tier);
  });

  it('knows the metadata endpoints of the common clouds', () => {
    for (const address of ['169.254.169.254', '169.254.170.2', '100.100.100.200', '168.63.129.16', 'fd00:ec2::254'])
      expect(blockedClass(address)).toBe('cloud metadata');
  });
});

describe('allow-list entries', () => {
  const list = createAllowList(['intranet.example', '*.corp.example', '10.9.0.0/16', '169.254.10.0/24']);

  it('a hostname entry opens the internal classes for that name only', () => {
    expect(list.refusal('intranet.example', '10.0.0.5')).toBeUndefined();
    expect(list.refusal('intranet.example', '127.0.0.1')).toBeUndefined();
    expect(list.refusal('intranet.example', 'fd12::1')).toBeUndefined();
    expect(list.refusal('other.example', '192.168.1.1')).toBe('private');
    expect(list.refusal('wiki.corp.example', '192.168.1.1')).toBeUndefined();
    expect(list.refusal('corp.example', '192.168.1.1')).toBe('private');
  });

  it('a hostname entry does not open link-local, reserved or metadata addresses', () => {
    expect(list.refusal('intranet.example', '169.254.169.254')).toBe('cloud metadata');
    expect(list.refusal('intranet.example', '::ffff:169.254.169.254')).toBe('IPv4-mapped cloud metadata');
    expect(list.refusal('intranet.example', '169.254.1.1')).toBe('link-local');
    expect(list.refusal('intranet.example', 'fe80::1')).toBe('link-local');
    expect(list.refusal('intranet.example', '198.18.0.1')).toBe('reserved');
    expect(list.refusal('intranet.example', '0.0.0.0')).toBe('unspecified');
  });

  it('an IP or CIDR entry opens the addresses it covers, link-local included, never metadata', () => {
    expect(list.refusal('anything', '10.9.3.4')).toBeUndefined();
    expect(list.refusal('anything', '169.254.10.7')).toBeUndefined();
    expect(list.refusal('anything', '10.8.0.1')).toBe('private');
    // 0.0.0.0/0 covers every IPv4 address, and still opens none of the never classes.
    const everything = createAllowList(['0.0.0.0/0', '::/0']);
    expect(everything.refusal('anything', '169.254.1.1')).toBeUndefined();
    expect(everything.refusal('anything', '169.254.169.254')).toBe('cloud metadata');
    expect(everything.refusal('anything', 'fd00:ec2::254')).toBe('cloud metadata');
    expect(everything.refusal('anything', '0.0.0.0')).toBe('unspecified');
    expect(everything.refusal('anything', '224.0.0.1')).toBe('multicast');
    expect(everything.refusal('anything', '255.255.255.255')).toBe('broadcast');
  });

  it('public addresses need no entry', () => {
    expect(createAllowList([]).refusal('example.com', '93.184.216.34')).toBeUndefined();
  });
});

describe('refusals name the rule, not what DNS answered', () => {
  const lookup: LookupFunction = async (host) =>
    host === 'localhost'
      ? [
          { address: '127.0.0.1', family: 4 },
          { address: '::1', family: 6 },
        ]
      : [{ address: '169.254.169.254', family: 4 }];

  it('a hostname refusal gives the class of its address, never the address', async () => {
    const error = await resolveGuarded('localhost', createAllowList([]), lookup).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetError);
    expect((error as NetError).failure).toBe('blocked');
    expect((error as NetError).message).toBe(
      'localhost resolves to an address in the loopback range; the server fetches from public addresses only, unless reader.allow_hosts allows one',
    );
  });

  it('a metadata address is refused to an allow-listed name, saying no setting opens it', async () => {
    const error = await resolveGuarded('meta.example', createAllowList(['meta.example']), lookup).catch((e) => e);
    expect((error as NetError).message).toBe(
      'meta.example resolves to an address in the cloud metadata range; the server never fetches from these',
    );
  });

  it("an IP literal is the client's own text and is named", async () => {
    const error = await resolveGuarded('10.1.2.3', createAllowList([]), lookup).catch((e) => e);
    expect((error as NetError).message).toContain('10.1.2.3 is in the private range');
  });
});
