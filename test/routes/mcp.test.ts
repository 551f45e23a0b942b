import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const PAGE = `<!doctype html><html><head><title>The lighthouse keeper</title></head><body><article>
<h1>The lighthouse keeper</h1>${'<p>The keeper climbed the stairs every evening to light the lamp for the ships.</p>'.repeat(8)}
</article></body></html>`;

const SEARCH = '/api/mcp/web_search_prime/mcp';
const READER = '/api/mcp/web_reader/mcp';

describe('remote MCP servers: web search and web reader', () => {
  let t: TestApp;
  let base: string;
  let site: http.Server;
  let pageUrl: string;

  const connect = async (path: string, key = t.key) => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    return client;
  };
  const usage = async (key: string) => {
    await t.services.usage.flush();
    return t.services.store.usageTotals(key.split('.')[0]!);
  };

  beforeAll(async () => {
    site = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/keeper`;
    t = await createTestApp({ reader: { allow_hosts: ['127.0.0.1'] } });
    await t.services.search.index.upsert([
      {
        url: 'https://coast.example.com/lighthouse',
        title: 'Lighthouses of the coast',
        content: 'A lighthouse keeper lit the lamp.',
      },
      { url: 'https://news.example.org/solar', title: 'Solar farms', content: 'Solar panels supply power.' },
    ]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t.close();
    site.close();
  });

  it('web_search_prime lists webSearchPrime with its arguments and answers a call from the index', async () => {
    const key = await t.newKey();
    const client = await connect(SEARCH, key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toEqual(['webSearchPrime']);
      const props = tools[0]!.inputSchema.properties as Record<string, { enum?: string[] }>;
      expect(Object.keys(props)).toEqual(
        expect.arrayContaining([
          'search_query',
          'search_domain_filter',
          'search_recency_filter',
          'content_size',
          'location',
        ]),
      );
      expect(props['search_recency_filter']!.enum).toEqual(['oneDay', 'oneWeek', 'oneMonth', 'oneYear', 'noLimit']);
      expect(props['content_size']!.enum).toEqual(['medium', 'high']);
      expect(tools[0]!.inputSchema.required).toEqual(['search_query']);

      const r = await client.callTool({
        name: 'webSearchPrime',
        arguments: { search_query: 'lighthouse keeper', search_recency_filter: 'noLimit', content_size: 'high' },
      });
      expect(r.isError).toBeFalsy();
      const results = JSON.parse((r.content as { text: string }[])[0]!.text) as { link: string; title: string }[];
      expect(results).toEqual([
        expect.objectContaining({ link: 'https://coast.example.com/lighthouse', title: 'Lighthouses of the coast' }),
      ]);
      const domain = await client.callTool({
        name: 'webSearchPrime',
        arguments: { search_query: 'solar', search_domain_filter: 'coast.example.com' },
      });
      expect(JSON.parse((domain.content as { text: string }[])[0]!.text)).toEqual([]);
    } finally {
      await client.close();
    }
    // One record per tool call, of the web_search operation; protocol messages are not recorded.
    const totals = await usage(key);
    expect(totals.requests).toBe(2);
    expect(totals.byOperation['web_search']?.requests).toBe(2);
  });

  it('web_reader lists webReader and reads a page through the reader', async () => {
    const key = await t.newKey();
    const client = await connect(READER, key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((x) => x.name)).toEqual(['webReader']);
      const props = Object.keys(tools[0]!.inputSchema.properties ?? {});
      expect(props).toEqual(expect.arrayContaining(['url', 'return_format', 'timeout', 'no_cache', 'retain_images']));
      const r = await client.callTool({ name: 'webReader', arguments: { url: pageUrl, return_format: 'text' } });
      expect(r.isError).toBeFalsy();
      const result = JSON.parse((r.content as { text: string }[])[0]!.text) as Record<string, string>;
      expect(result['title']).toBe('The lighthouse keeper');
      expect(result['url']).toBe(pageUrl);
      expect(result['content']).toContain('light the lamp');
    } finally {
      await client.close();
    }
    const totals = await usage(key);
    expect(totals.requests).toBe(1);
    expect(totals.byOperation['reader']?.requests).toBe(1);
  });

  it('reads under the tenant of the reader operation: account, then key', async () => {
    await t.services.store.accounts.createAccount({
      id: 'acc-reader',
      name: 'Reader',
      email: 'reader@example.com',
      passwordHash: 'x',
      createdAt: Date.now(),
      disabledAt: undefined,
    });
    const key = await t.newKey();
    const keyId = key.split('.')[0]!;
    await t.services.store.accounts.setKeyOwner(keyId, 'acc-reader');
    t.services.accountPolicies.forget(keyId);
    const read = vi.spyOn(t.services.reader, 'read');
    try {
      const client = await connect(READER, key);
      try {
        const r = await client.callTool({ name: 'webReader', arguments: { url: pageUrl, return_format: 'text' } });
        expect(r.isError).toBeFalsy();
      } finally {
        await client.close();
      }
      expect((await t.post('/paas/v4/reader', { url: pageUrl }, key)).status).toBe(200);
      const tenants = read.mock.calls.map(([, options]) => options?.tenant);
      expect(tenants).toEqual([`acc-reader/${keyId}`, `acc-reader/${keyId}`]);
    } finally {
      read.mockRestore();
    }
  });

  it('answers bad arguments and the reader’s refusals as tool errors, billed nothing', async () => {
    const key = await t.newKey();
    const reader = await connect(READER, key);
    const search = await connect(SEARCH, key);
    try {
      const badFormat = await reader.callTool({ name: 'webReader', arguments: { url: pageUrl, return_format: 'pdf' } });
      expect(badFormat.isError).toBe(true);
      expect(JSON.stringify(badFormat.content)).toContain('return_format');
      const noQuery = await search.callTool({ name: 'webSearchPrime', arguments: {} });
      expect(noQuery.isError).toBe(true);
      expect(JSON.stringify(noQuery.content)).toContain('search_query');
      const unknownField = await search.callTool({ name: 'webSearchPrime', arguments: { search_query: 'x', top: 3 } });
      expect(unknownField.isError).toBe(true);
      const ftp = await reader.callTool({ name: 'webReader', arguments: { url: 'ftp://example.com/file' } });
      expect(ftp.isError).toBe(true);
      expect(JSON.stringify(ftp.content)).toMatch(/Error 1\d{3}/);
      await expect(reader.callTool({ name: 'webSearchPrime', arguments: { search_query: 'x' } })).rejects.toThrow(
        /Unknown tool/,
      );
    } finally {
      await Promise.all([reader.close(), search.close()]);
    }
    const totals = await usage(key);
    expect(totals.promptTokens + totals.completionTokens).toBe(0);
    expect(totals.errors).toBe(totals.requests);
  });

  it('refuses a request without a valid key with 401, before any MCP message is read', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    for (const path of [SEARCH, READER]) {
      for (const authorization of [undefined, 'Bearer nope.nope']) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(authorization ? { authorization } : {}),
          },
          body: JSON.stringify(init),
        });
        expect(res.status).toBe(401);
        expect(((await res.json()) as { code: number }).code).toBeGreaterThanOrEqual(1000);
      }
    }
    await expect(connect(SEARCH, 'nope.nope')).rejects.toThrow();
  });

  it('is stateless: no session id, and GET or DELETE answer 405', async () => {
    const res = await fetch(`${base}${SEARCH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as { result: { serverInfo: { name: string }; capabilities: object } };
    expect(body.result.serverInfo.name).toBe('web-search-prime');
    expect(body.result.capabilities).toHaveProperty('tools');
    // A tools/list with no initialize before it: any process can answer any request.
    const list = await fetch(`${base}${SEARCH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${t.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(((await list.json()) as { result: { tools: { name: string }[] } }).result.tools[0]!.name).toBe(
      'webSearchPrime',
    );
    for (const method of ['GET', 'DELETE']) {
      const r = await fetch(`${base}${READER}`, {
        method,
        headers: { authorization: `Bearer ${t.key}`, accept: 'text/event-stream' },
      });
      expect(r.status).toBe(405);
    }
  });

  it('admits a tool call under the key’s limits like the HTTP operation (429 with Retry-After)', async () => {
    const key = await t.newKey({ limits: { concurrent: 0, requests_per_minute: 1, windows: [] } });
    const client = await connect(SEARCH, key);
    try {
      // initialize and tools/list are not counted: the first call is admitted, the second refused.
      await client.listTools();
      const first = await client.callTool({ name: 'webSearchPrime', arguments: { search_query: 'lighthouse' } });
      expect(first.isError).toBeFalsy();
      await expect(
        client.callTool({ name: 'webSearchPrime', arguments: { search_query: 'lighthouse' } }),
      ).rejects.toThrow(/1303/);
    } finally {
      await client.close();
    }
    const raw = await fetch(`${base}${SEARCH}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'webSearchPrime', arguments: { search_query: 'x' } },
      }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await raw.json()) as { code: number }).code).toBe(1303);
  });
});
