import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import type { LookupFunction } from '../../../src/net/resolve.js';
import { createReaderService } from '../../../src/services/reader/index.js';
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
  'linklocal.test': ['169.254.7.7'],
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
    const { result } = await reader.read({ url: `http://fixtures.test:${server.port}/fixtures/article.html` });
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
      const { result } = await reader.read({ url: `http://fixtures.test:${server.port}/fixtures/article.html` });
      expect(result.title).toContain('Tidal');
    } finally {
      await reader.close();
    }
  });

  it('refuses a name with one address outside the entry, naming the rule and not the address DNS answered', async () => {
    // localhost resolves to 127.0.0.1 and ::1 in the fake DNS; ::1 is not in 127.0.0.0/8.
    const reader = createReaderService({ lookup, allowHosts: ['127.0.0.0/8'] });
    try {
      const error = await refusal(reader.read({ url: `http://localhost:${server.port}/fixtures/article.html` }));
      expect(error.code).toBe(1214);
      expect(error.message).toContain('localhost resolves to an address in the loopback range');
      expect(error.message).not.toContain('::1');
      expect(error.message).not.toContain('127.0.0.1');
    } finally {
      await reader.close();
    }
  });

  it('an IP entry allows exactly that address', async () => {
    const reader = createReaderService({ lookup, allowHosts: ['127.0.0.1'] });
    try {
      const { result: ok } = await reader.read({ url: `http://127.0.0.1:${server.port}/fixtures/article.html` });
      expect(ok.content).toContain('neap tides');
      const error = await refusal(reader.read({ url: 'http://10.0.0.1/' }));
      expect(error.message).toContain('private');
    } finally {
      await reader.close();
    }
  });
});

describe('an allow-listed name does not open every address', () => {
  const reader = createReaderService({ lookup, allowHosts: ['metadata.test', 'linklocal.test', 'internal.test'] });
  afterAll(() => reader.close());

  it.each([
    ['http://metadata.test/latest/meta-data/', 'cloud metadata'],
    ['http://linklocal.test/', 'link-local'],
  ])('%s stays refused (%s), before any connection', async (url, label) => {
    const error = await refusal(reader.read({ url, timeout: 2 }));
    expect(error.code).toBe(1214);
    expect(error.message).toContain(`resolves to an address in the ${label} range`);
    expect(error.message).not.toContain('169.254');
  });
});
