import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyPolicy } from '../../src/stores/types.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const SEARCH = '/api/mcp/web_search_prime/mcp';
const READER = '/api/mcp/web_reader/mcp';
const QUOTA = '/api/monitor/usage/quota/limit';
const UNLIMITED = { concurrent: 0, requests_per_minute: 0, windows: [] };

const rpc = (method: string, params?: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
const SEARCH_CALL = rpc('tools/call', { name: 'webSearchPrime', arguments: { search_query: 'lighthouse' } });

/**
 * The MCP servers and the usage query check a key as every operation of the API does: its
 * revocation, expiry, `allowed_ips` against the client's address, an API endpoint on it, and its
 * account's shared limits (a tool call is admitted under them; the usage query spends nothing).
 */
describe('MCP servers and the usage query authenticate like the API', () => {
  let t: TestApp;

  const send = async (url: string, key: string, address = '127.0.0.1', body?: string) => {
    const res = await t.app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url,
      remoteAddress: address,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-protocol-version': '2025-06-18',
      },
      ...(body === undefined ? {} : { payload: body }),
    });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
  };
  /** Each of the three routes, with the request that does work there. */
  const routes = [
    ['web search MCP', (key: string, address?: string) => send(SEARCH, key, address, SEARCH_CALL)],
    ['web reader MCP', (key: string, address?: string) => send(READER, key, address, rpc('tools/list'))],
    ['usage query', (key: string, address?: string) => send(QUOTA, key, address)],
  ] as const;
  const keyWith = async (policy: KeyPolicy, endpoints: ('general' | 'coding')[] = ['coding']) =>
    (await t.services.keys.create({ name: 'governed', endpoints, limits: UNLIMITED, policy })).key;

  beforeAll(async () => {
    t = await createTestApp();
    await t.services.search.index.upsert([
      { url: 'https://coast.example.com/lighthouse', title: 'Lighthouses', content: 'A lighthouse keeper.' },
    ]);
  });
  afterAll(() => t.close());

  it.each(routes)(
    '%s: a key limited to allowed_ips is refused from elsewhere (1220) and served inside',
    async (_n, call) => {
      const key = await keyWith({ allowedIps: ['10.0.0.0/8'] });
      const outside = await call(key, '203.0.113.9');
      expect(outside.status).toBe(403);
      expect(outside.body).toMatchObject({ code: 1220, message: expect.stringContaining('allowed_ips') });
      expect((await call(key, '10.1.2.3')).status).toBe(200);
    },
  );

  it.each(routes)('%s: an expired key is refused (1003)', async (_n, call) => {
    const key = await keyWith({ expiresAt: Date.now() - 1000 });
    const r = await call(key);
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ code: 1003 });
  });

  it.each(routes)('%s: a revoked key is refused', async (_n, call) => {
    const { key, record } = await t.services.keys.create({ name: 'gone', endpoints: ['general'] });
    expect((await call(key)).status).toBe(200);
    await t.services.keys.revoke(record.id);
    expect((await call(key)).status).toBe(401);
  });

  it.each(routes)('%s: a key without an API endpoint is refused (1220)', async (_n, call) => {
    const { key } = await t.services.keys.create({ name: 'none', endpoints: [] });
    const r = await call(key);
    expect(r.status).toBe(403);
    expect(r.body).toMatchObject({ code: 1220, message: expect.stringContaining('endpoint') });
  });

  it('admits a tool call under its account’s shared requests per minute (429), and the usage query still answers', async () => {
    await t.services.store.accounts.createAccount({
      id: 'acc-mcp',
      name: 'MCP',
      email: 'mcp@example.com',
      passwordHash: 'x',
      createdAt: Date.now(),
      disabledAt: undefined,
    });
    await t.services.accountPolicies.set('acc-mcp', { requestsPerMinute: 1 });
    const keys = [await keyWith({}), await keyWith({}, ['general'])];
    for (const key of keys) await t.services.store.accounts.setKeyOwner(key.split('.')[0]!, 'acc-mcp');
    t.services.accountPolicies.forget(keys[0]!.split('.')[0]!);
    t.services.accountPolicies.forget(keys[1]!.split('.')[0]!);
    // Listing tools is not admitted under limits; the first call is, and the account's minute is spent.
    expect((await send(SEARCH, keys[0]!, undefined, rpc('tools/list'))).status).toBe(200);
    expect((await send(SEARCH, keys[0]!, undefined, SEARCH_CALL)).status).toBe(200);
    const second = await send(SEARCH, keys[1]!, undefined, SEARCH_CALL);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ code: 1303 });
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(QUOTA, keys[1]!)).status).toBe(200);
  });
});
