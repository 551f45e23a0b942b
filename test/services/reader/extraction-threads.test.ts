import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { createReaderService, type ReaderService } from '../../../src/services/reader/index.js';
import { hugeHtml, longPdf, pdfBomb } from './heavy-pages.js';

/**
 * The extraction threads: a page that runs past its deadline, over the memory cap, a PDF bomb, and
 * a client that leaves mid-extraction each end the thread that held the page (and only that page
 * fails); the next page gets a fresh thread. The server-level side (the event loop answering while
 * pages are extracted) is in test/routes/reader-threads.test.ts.
 */

const ARTICLE = `<!doctype html><html><head><title>Harbour</title></head><body><article><h1>Harbour</h1>${'<p>The fishing fleet returned early because the swell rose faster than forecast along the coast.</p>'.repeat(6)}</article></body></html>`;

let server: Server;
let origin: string;
beforeAll(async () => {
  const pages: Record<string, [string, Buffer | string]> = {
    '/article': ['text/html', ARTICLE],
    '/huge': ['text/html', hugeHtml(1_000_000)],
    '/bomb.pdf': ['application/pdf', pdfBomb(100)],
    '/long.pdf': ['application/pdf', longPdf(300)],
  };
  server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', origin).pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': page[0] }).end(page[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function withReader(
  options: Parameters<typeof createReaderService>[0],
  body: (r: ReaderService) => Promise<void>,
) {
  const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 1, ...options });
  try {
    await body(reader);
  } finally {
    await reader.close();
  }
}

/** The next page after a failure reads normally, in a new thread. */
async function stillReads(reader: ReaderService): Promise<void> {
  const { result } = await reader.read({ url: `${origin}/article`, return_format: 'text' });
  expect(result.content).toContain('fishing fleet');
}

describe('extraction threads', () => {
  it('a page past its deadline answers 1234 with the reason, and its thread is replaced', async () => {
    await withReader({}, async (reader) => {
      const error = await failure(reader.read({ url: `${origin}/huge`, timeout: 1 }));
      expect(error.code).toBe(1234);
      expect(error.message).toMatch(/timed out after 1 s while extracting the page/);
      expect(error.message).toContain('/huge');
      expect(reader.extraction().recycled).toBe(1);
      await stillReads(reader);
      expect(reader.extraction()).toMatchObject({ threads: 1, busy: 0, waiting: 0 });
    });
  });

  it('a page over the memory cap answers 1234 naming the cap, and its thread is replaced', async () => {
    await withReader({ workerMemoryMb: 48 }, async (reader) => {
      const error = await failure(reader.read({ url: `${origin}/huge`, timeout: 120 }));
      expect(error.code).toBe(1234);
      expect(error.message).toMatch(/needs more than 48 MB of memory to extract \(reader\.worker_memory_mb\)/);
      expect(reader.extraction().recycled).toBe(1);
      await stillReads(reader);
    });
  });

  it('a PDF bomb (1 MB inflating to 100 MB of text operators) is refused before parsing; the thread stays', async () => {
    await withReader({}, async (reader) => {
      const error = await failure(reader.read({ url: `${origin}/bomb.pdf`, timeout: 20 }));
      expect(error.code).toBe(1234);
      expect(error.message).toMatch(/decode to more than 64 MB \(reader\.pdf_max_decoded_mb\)/);
      expect(reader.extraction().recycled).toBe(0);
      await stillReads(reader);
    });
  });

  it('a client that leaves mid-extraction ends the job: the thread is terminated at once', async () => {
    await withReader({}, async (reader) => {
      const controller = new AbortController();
      const pending = reader.read({ url: `${origin}/long.pdf`, timeout: 120 }, { signal: controller.signal });
      await vi.waitFor(() => expect(reader.extraction().busy).toBe(1), { timeout: 10_000, interval: 20 });
      controller.abort(new Error('client went away'));
      await expect(pending).rejects.toThrow('client went away');
      expect(reader.extraction()).toMatchObject({ busy: 0, recycled: 1, threads: 0 });
      await stillReads(reader);
    });
  });

  it('pages wait for a free thread, and one that leaves while waiting never reaches a thread', async () => {
    await withReader({}, async (reader) => {
      const first = new AbortController();
      const second = new AbortController();
      const running = reader.read({ url: `${origin}/long.pdf`, timeout: 120 }, { signal: first.signal });
      await vi.waitFor(() => expect(reader.extraction().busy).toBe(1), { timeout: 10_000, interval: 20 });
      const waiting = reader.read({ url: `${origin}/article` }, { signal: second.signal });
      await vi.waitFor(() => expect(reader.extraction().waiting).toBe(1), { timeout: 10_000, interval: 20 });
      second.abort(new Error('second client went away'));
      await expect(waiting).rejects.toThrow('second client went away');
      expect(reader.extraction()).toMatchObject({ busy: 1, waiting: 0, recycled: 0 });
      first.abort(new Error('first client went away'));
      await expect(running).rejects.toThrow('first client went away');
    });
  });

  it("hands back the reply's JSON bytes; the result object is parsed from them only when asked for", async () => {
    await withReader({}, async (reader) => {
      const parse = vi.spyOn(JSON, 'parse');
      try {
        const output = await reader.read({ url: `${origin}/article`, return_format: 'text' });
        const text = new TextDecoder().decode(output.json);
        const parsesOfIt = () => parse.mock.calls.filter(([source]) => source === text).length;
        expect(parsesOfIt()).toBe(0);
        expect(output.result.content).toContain('fishing fleet');
        expect(output.result).toBe(output.result);
        expect(parsesOfIt()).toBe(1);
        expect(output.result).toEqual((await reader.read({ url: `${origin}/article`, return_format: 'text' })).result);
      } finally {
        parse.mockRestore();
      }
    });
  });

  it('reads several pages at once on several threads', async () => {
    await withReader({ workers: 2 }, async (reader) => {
      const results = await Promise.all(
        ['a', 'b', 'c', 'd'].map((q) => reader.read({ url: `${origin}/article?${q}`, return_format: 'text' })),
      );
      for (const { result } of results) expect(result.content).toContain('fishing fleet');
      expect(reader.extraction().threads).toBeLessThanOrEqual(2);
    });
  });

  it('starts every thread at warm-up (serve calls it), and reads on them afterwards', async () => {
    await withReader({ workers: 2 }, async (reader) => {
      expect(reader.extraction().threads).toBe(0);
      await reader.warmUp();
      expect(reader.extraction()).toEqual({ threads: 2, busy: 0, waiting: 0, recycled: 0 });
      await stillReads(reader);
      expect(reader.extraction()).toEqual({ threads: 2, busy: 0, waiting: 0, recycled: 0 });
    });
  });
});
