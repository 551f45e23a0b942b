import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { hugeHtml, longPdf } from '../services/reader/heavy-pages.js';

/**
 * Over real sockets: while a huge page and a long PDF are being extracted, the server's event loop
 * still answers (`/health` replies while both are in their threads), and clients that hang up
 * mid-extraction end their jobs. Latency figures are in docs/benchmarks.md, not asserted here.
 */
describe('reader extraction off the event loop', () => {
  let site: http.Server;
  let siteOrigin: string;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    const pages: Record<string, [string, Buffer | string]> = {
      '/huge': ['text/html', hugeHtml(2_000_000)],
      '/long.pdf': ['application/pdf', longPdf(500)],
    };
    site = http.createServer((req, res) => {
      const page = pages[req.url ?? ''];
      if (!page) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await createTestApp({ reader: { allow_hosts: ['127.0.0.1'], workers: 2 } });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = address;
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  /** Starts a read over a socket of its own; the caller may hang up with `destroy`. */
  function startRead(url: string, key = t.key): http.ClientRequest {
    const body = JSON.stringify({ url, no_cache: true, timeout: 120 });
    const request = http.request(`${base}/paas/v4/reader`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    request.on('error', () => {
      // Destroyed on purpose below: the client is the one leaving.
    });
    request.end(body);
    return request;
  }

  const health = (): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      http
        .get(`${base}/health`, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => {
            body += chunk.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });

  it('answers /health while both pages are in their threads, and hung-up reads end their jobs', async () => {
    // Two keys: one key holds at most all threads but one.
    const reads = [startRead(`${siteOrigin}/huge`), startRead(`${siteOrigin}/long.pdf`, await t.newKey())];
    await vi.waitFor(() => expect(t.services.reader.extraction().busy).toBe(2), { timeout: 20_000, interval: 10 });
    const busyAtReply: number[] = [];
    for (let i = 0; i < 5; i++) {
      const reply = await health();
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.body)).toMatchObject({ status: 'ok' });
      busyAtReply.push(t.services.reader.extraction().busy);
    }
    // Every /health reply came while both extractions were still running in their threads.
    expect(busyAtReply).toEqual([2, 2, 2, 2, 2]);

    const recycledBefore = t.services.reader.extraction().recycled;
    for (const read of reads) read.destroy();
    await vi.waitFor(() => expect(t.services.reader.extraction().busy).toBe(0), { timeout: 5_000, interval: 10 });
    expect(t.services.reader.extraction().recycled - recycledBefore).toBe(2);
  });
});
