import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const PAGE = `<!doctype html><html><head><title>Harbour Report</title>
<meta name="description" content="News from the harbour."></head><body><nav><a href="/">Home</a> Subscribe now</nav>
<article><h1>Harbour Report</h1>${'<p>The fishing fleet returned early because the swell rose faster than forecast along the coast.</p>'.repeat(6)}</article>
<footer>Cookie settings</footer></body></html>`;

describe('POST /paas/v4/reader', () => {
  let site: http.Server;
  let url: string;
  let allowed: TestApp;
  let guarded: TestApp;
  let hits = 0;

  beforeAll(async () => {
    site = http.createServer((_req, res) => {
      hits++;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/harbour`;
    allowed = await createTestApp({ reader: { allow_hosts: ['127.0.0.1'] } });
    guarded = await createTestApp();
  });
  afterAll(async () => {
    await Promise.all([allowed.close(), guarded.close()]);
    site.close();
  });

  it('answers the envelope of the spec with the article as markdown', async () => {
    const res = await allowed.post('/paas/v4/reader', { url, request_id: 'reader-req-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: 'reader-req-1', model: 'reader' });
    expect(String(res.body['id'])).toMatch(/^\d{14}[0-9a-f]{16}$/);
    const result = res.body['reader_result'] as Record<string, unknown>;
    expect(result['title']).toBe('Harbour Report');
    expect(result['url']).toBe(url);
    expect(result['content']).toContain('fishing fleet');
    expect(result['content']).not.toContain('Cookie settings');
  });

  it('serves a second read from the store cache, and no_cache fetches again', async () => {
    const before = hits;
    await allowed.post('/paas/v4/reader', { url: `${url}?c=1` });
    await allowed.post('/paas/v4/reader', { url: `${url}?c=1` });
    expect(hits - before).toBe(1);
    await allowed.post('/paas/v4/reader', { url: `${url}?c=1`, no_cache: true });
    expect(hits - before).toBe(2);
  });

  it('writes the result as the extraction thread serialized it, the same bytes again from the cache', async () => {
    const read = () =>
      allowed.app.inject({
        method: 'POST',
        url: '/paas/v4/reader',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${allowed.key}` },
        payload: JSON.stringify({ url: `${url}?bytes=1` }),
      });
    const result = (payload: string) => payload.slice(payload.indexOf('"reader_result":'));
    const fresh = await read();
    const cached = await read();
    expect(fresh.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(cached.headers['content-type']).toBe('application/json; charset=UTF-8');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.payload.startsWith(`{"id":"${fresh.json().id}","created":`)).toBe(true);
    expect(result(cached.payload)).toBe(result(fresh.payload));
    expect(Number(fresh.headers['content-length'])).toBe(Buffer.byteLength(fresh.payload));
    expect(allowed.replyViolations).toEqual([]);
  });

  it('refuses a private address without the allow-list, before connecting', async () => {
    const before = hits;
    const res = await guarded.post('/paas/v4/reader', { url });
    expect(res.status).toBe(400);
    expect(res.body['code']).toBe(1214);
    expect(res.body['message']).toMatch(/url.*loopback/);
    expect(hits).toBe(before);
  });

  it('accepts the timeout as a string, as the Python SDK sends it', async () => {
    const res = await allowed.post('/paas/v4/reader', { url, timeout: '20', no_cache: true });
    expect(res.status).toBe(200);
  });
});
