import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { createReaderService } from '../../../src/services/reader/index.js';
import { checkPdfStreams, PdfTooLarge } from '../../../src/services/reader/pdf-streams.js';
import { longPdf, lzwBomb, pdfOf, spaceBomb } from './heavy-pages.js';

/**
 * A PDF bomb: 300 KB whose content stream inflates to 300 MB. pdf.js inflates into ArrayBuffers that
 * the extraction thread's heap cap does not count, so only a bound on decoded bytes holds it.
 */

let server: Server;
let origin: string;
const pages: Record<string, Buffer> = {};
beforeAll(async () => {
  pages['/bomb.pdf'] = await spaceBomb(300);
  pages['/long.pdf'] = longPdf(2);
  server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', origin).pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pdf' }).end(page);
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

describe('PDF bomb', () => {
  it('a 300 KB PDF inflating to 300 MB answers 1234 naming the bound, with RSS growing < 100 MB', async () => {
    expect(pages['/bomb.pdf']?.length).toBeLessThan(400 * 1024);
    const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 1 });
    try {
      // The thread exists before the bomb arrives (serve starts every thread at start-up).
      await reader.warmUp();
      const before = process.memoryUsage().rss;
      let peak = before;
      const poll = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 5);
      const error = await failure(reader.read({ url: `${origin}/bomb.pdf`, timeout: 60 })).finally(() =>
        clearInterval(poll),
      );
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(error.code).toBe(1234);
      expect(error.message).toMatch(/decode to more than 64 MB \(reader\.pdf_max_decoded_mb\)/);
      expect(peak - before).toBeLessThan(100 * 1024 * 1024);
      const { result } = await reader.read({ url: `${origin}/long.pdf`, return_format: 'text' });
      expect(result.content).toContain('tidal turbines');
    } finally {
      await reader.close();
    }
  }, 60_000);

  it('the bound is configured: a lower one refuses a PDF that fits the default', async () => {
    const reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 1, pdfMaxDecodedMb: 1 });
    try {
      pages['/ten.pdf'] = await spaceBomb(10);
      const error = await failure(reader.read({ url: `${origin}/ten.pdf` }));
      expect(error.message).toMatch(/more than 1 MB \(reader\.pdf_max_decoded_mb\)/);
    } finally {
      await reader.close();
    }
  });
});

describe('checkPdfStreams', () => {
  const MB = 1024 * 1024;
  const refused = (pdf: Buffer, max = 64 * MB) =>
    expect(checkPdfStreams(pdf, max, 'the bound')).rejects.toThrow(PdfTooLarge);

  it('counts through a chain of filters (a bomb deflated twice is small at the first layer)', async () => {
    const twice = await spaceBomb(100, 2);
    expect(twice.length).toBeLessThan(10 * 1024);
    await refused(twice);
  });

  it('counts many streams together', async () => {
    const page = deflateSync(Buffer.alloc(10 * MB, 0x20));
    await refused(pdfOf(Array.from({ length: 8 }, () => ({ data: page, filter: 'FlateDecode' }))));
  });

  it('counts an LZW stream whose codes grow one longer each (the LZW bomb) without decoding it', async () => {
    // Codes 258, 259, … each repeat the previous entry plus one byte: n codes decode to ~n²/2 bytes.
    const bytes = lzwBomb();
    await refused(pdfOf([{ data: bytes, filter: 'LZWDecode' }]), 4 * MB);
    await expect(checkPdfStreams(pdfOf([{ data: bytes, filter: 'LZWDecode' }]), 64 * MB, 'x')).resolves.toBeUndefined();
  });

  it('reads the filter under a hex-escaped name', async () => {
    const page = deflateSync(Buffer.alloc(2 * MB, 0x20));
    await refused(pdfOf([{ data: page, filter: '#46lateDecode' }]), MB);
  });

  it('refuses an encrypted PDF, whose streams it cannot measure', async () => {
    const pdf = Buffer.from(
      longPdf(1).toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encrypt 9 0 R'),
      'latin1',
    );
    await expect(checkPdfStreams(pdf, 64 * MB, 'x')).rejects.toThrow(/encrypted/);
  });

  it('lets an ordinary PDF through', async () => {
    await expect(checkPdfStreams(longPdf(50), 64 * MB, 'x')).resolves.toBeUndefined();
  });
});
