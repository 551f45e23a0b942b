import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ADMIN = 'mcp-billing-admin-key-0123456789';
const UNLIMITED = { concurrent: 0, requests_per_minute: 0, windows: [] };

describe('remote MCP servers bill a tool call as the operation it stands for', () => {
  let t: TestApp;
  let base: string;

  const admin = async (url: string, body: unknown) => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(res.statusCode).toBe(200);
    return res.json() as Record<string, unknown>;
  };

  beforeAll(async () => {
    t = await createTestApp({ security: { admin_key: ADMIN }, prices: { web_search: { per_call: '0.003' } } });
    await t.services.search.index.upsert([
      { url: 'https://coast.example.com/lighthouse', title: 'Lighthouses', content: 'A lighthouse keeper.' },
    ]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('reserves the web_search price per call, refuses with 1113 when the balance is spent, and settles', async () => {
    const made = await admin('/admin/accounts', { name: 'Payer', email: 'payer-mcp@example.test' });
    const account = made['id'] as string;
    await admin(`/admin/accounts/${account}/credit`, { amount: '0.006' });
    const key = (await admin('/admin/keys', { name: 'payer', account, limits: UNLIMITED }))['key'] as string;

    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/api/mcp/web_search_prime/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      // Listing tools costs nothing; two calls fit the balance, the third does not.
      await client.listTools();
      for (let i = 0; i < 2; i++) {
        const r = await client.callTool({ name: 'webSearchPrime', arguments: { search_query: 'lighthouse' } });
        expect(r.isError).toBeFalsy();
      }
      await expect(
        client.callTool({ name: 'webSearchPrime', arguments: { search_query: 'lighthouse' } }),
      ).rejects.toThrow(/1113/);
    } finally {
      await client.close();
    }
    await t.services.usage.flush();
    const money = t.services.store.money;
    const { balance, reserved } = await money.balance(account);
    expect(balance).toBe(0);
    expect(reserved).toBe(0);
    expect(await money.ledgerSum(account)).toBe(balance);
  });
});
