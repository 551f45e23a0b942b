import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { blockedClass, createReaderService, type LookupFunction } from '../../../src/services/reader/index.js';
import { type FixtureServer, startFixtureServer } from './fixture-server.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(async () => {
  await server.close();
});

/** Fake DNS: the tests never ask a real resolver, and never connect anywhere but 127.0.0.1. */
const fakeDns: Record<string, string[]> = {
  'fixtures.test': ['127.0.0.1'],
  'internal.test': ['10.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
};
const lookup: LookupFunction = async (hostname) => {
  const addresses = fakeDns[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

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

describe('refusals without the allow-list', () => {
  const reader = createReaderService({ lookup });
  afterAll(() => reader.close());

  it.each([
    ['http://127.0.0.1:PORT/fixtures/article.html', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[::1]:PORT/', 'loopback'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'IPv4-mapped loopback'],
    ['http://0.0.0.0:PORT/', 'unspecified'],
    ['http://2130706433:PORT/', 'loopback'],
    ['http://0x7f.1:PORT/', 'loopback'],
    ['http://localhost:PORT/fixtures/article.html', 'loopback'],
    ['http://internal.test/', 'private'],
    ['http://metadata.test/', 'cloud metadata'],
    ['http://mixed.test:PORT/', 'loopback'],
    ['http://mapped.test:PORT/', 'IPv4-mapped loopback'],
  ])('%s is refused (%s)', async (template, label) => {
    const url = template.replace('PORT', String(server.port));
    const before = server.requests();
    const error = await refusal(reader.read({ url, timeout: 2 }));
    expect(error.code).toBe(1214);
    expect(error.message).toContain('url');
    expect(error.message).toContain(url);
    expect(error.message).toContain(label);
    expect(server.requests()).toBe(before);
  });

  it.each(['file:///etc/passwd', 'ftp://example.com/x', 'gopher://x/', 'not a url', '//example.com/x'])(
    '%s is not a fetchable URL',
    async (url) => {
      const error = await refusal(reader.read({ url }));
      expect(error.code).toBe(1214);
      expect(error.message).toMatch(/url/);
    },
  );

  it('reports a DNS failure as an upstream error', async () => {
    const error = await refusal(reader.read({ url: 'http://nowhere.test/' }));
    expect(error.code).toBe(1234);
    expect(error.message).toMatch(/DNS failure: could not resolve host nowhere\.test/);
  });
});

describe('redirects out of an allow-listed host', () => {
  const reader = createReaderService({ lookup, allowHosts: ['fixtures.test'] });
  afterAll(() => reader.close());

  it('reads through an allow-listed hostname', async () => {
    const result = await reader.read({ url: `http://fixtures.test:${server.port}/fixtures/article.html` });
    expect(result.content).toContain('forty metres');
  });

  it.each([
    ['http://127.0.0.1:PORT/fixtures/article.html', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['http://[::1]:PORT/', 'loopback'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'IPv4-mapped loopback'],
    ['http://localhost:PORT/', 'loopback'],
    ['http://internal.test/', 'private'],
  ])('a redirect to %s is refused', async (template, label) => {
    const target = template.replace('PORT', String(server.port));
    const url = `http://fixtures.test:${server.port}/redirect?to=${encodeURIComponent(target)}`;
    const error = await refusal(reader.read({ url, timeout: 2 }));
    expect(error.code).toBe(1214);
    expect(error.message).toContain('redirects to');
    expect(error.message).toContain(label);
  });

  it('a redirect to another scheme is refused', async () => {
    const url = `http://fixtures.test:${server.port}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`;
    const error = await refusal(reader.read({ url }));
    expect(error.code).toBe(1214);
    expect(error.message).toMatch(/redirect target must use http or https/);
  });

  it('stops after the redirect limit', async () => {
    const error = await refusal(reader.read({ url: `http://fixtures.test:${server.port}/loop` }));
    expect(error.code).toBe(1234);
    expect(error.message).toMatch(/more than 5 redirects/);
  });
});

describe('allow-list by address', () => {
  it('a CIDR entry lets its addresses through, whatever the name', async () => {
    const reader = createReaderService({ lookup, allowHosts: ['127.0.0.0/8'] });
    try {
      const result = await reader.read({ url: `http://localhost:${server.port}/fixtures/article.html` });
      expect(result.title).toContain('Tidal');
      // ::1 is not in 127.0.0.0/8, and localhost also resolves to it in the fake DNS.
    } catch (error) {
      expect((error as Error).message).toContain('::1');
    } finally {
      await reader.close();
    }
  });

  it('an IP entry allows exactly that address', async () => {
    const reader = createReaderService({ lookup, allowHosts: ['127.0.0.1'] });
    try {
      const ok = await reader.read({ url: `http://127.0.0.1:${server.port}/fixtures/article.html` });
      expect(ok.content).toContain('neap tides');
      const error = await refusal(reader.read({ url: 'http://10.0.0.1/' }));
      expect(error.message).toContain('private');
    } finally {
      await reader.close();
    }
  });
});
