import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { createReaderService, type ReaderService } from '../../../src/services/reader/index.js';
import { checkPdfStreams, PdfTooLarge } from '../../../src/services/reader/pdf-streams.js';
import { lzwBomb, type PdfStream, pdfOf, spaceBombData } from './heavy-pages.js';

/**
 * The ways a stream's dictionary and data can be written that pdf.js reads and a naive scan would
 * not: each form, filled with a stream that inflates to 300 MB, is refused naming the bound with
 * RSS growing < 100 MB; filled with 2 MB, it reads (so pdf.js does inflate a stream written so).
 */

type Form = { name: string; stream: (data: Buffer) => PdfStream; extra?: string[] };

const FORMS: Form[] = [
  {
    name: 'spaces between `stream` and the end of its line',
    stream: (data) => ({ data, filter: 'FlateDecode', keyword: 'stream   ' }),
  },
  {
    name: 'the filter under /F',
    stream: (data) => ({ data, dict: (n) => `<< /Length ${n} /F /FlateDecode >>` }),
  },
  {
    name: 'a repeated /Filter (the last one holds)',
    stream: (data) => ({ data, dict: (n) => `<< /Length ${n} /Filter /ASCIIHexDecode /Filter /FlateDecode >>` }),
  },
  {
    name: 'a /Filter decoy in a nested dictionary and in a string',
    stream: (data) => ({
      data,
      dict: (n) =>
        `<< /Length ${n} /T (/Filter /AHx) /DecodeParms << /Filter /ASCIIHexDecode >> /Filter /FlateDecode >>`,
    }),
  },
  {
    name: 'an indirect /Filter',
    stream: (data) => ({ data, dict: (n) => `<< /Length ${n} /Filter 100 0 R >>` }),
    extra: ['/FlateDecode'],
  },
  {
    name: 'a dictionary longer than 4 KB',
    stream: (data) => ({ data, dict: (n) => `<< /Filter /FlateDecode /Length ${n} /Pad (${'x'.repeat(6000)}) >>` }),
  },
];

let server: Server;
let origin: string;
let reader: ReaderService;
const pages: Record<string, Buffer> = {};
beforeAll(async () => {
  const bomb = await spaceBombData(300);
  const small = await spaceBombData(2);
  for (const [i, form] of FORMS.entries()) {
    pages[`/bomb-${i}.pdf`] = pdfOf([form.stream(bomb)], form.extra);
    pages[`/small-${i}.pdf`] = pdfOf([form.stream(small)], form.extra);
  }
  server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? '/', origin).pathname];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pdf' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  reader = createReaderService({ allowHosts: ['127.0.0.1'], workers: 1 });
  await reader.warmUp();
});
afterAll(async () => {
  await reader?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function refusedWithin100Mb(path: string): Promise<void> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const poll = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const error = await reader.read({ url: `${origin}${path}`, timeout: 60 }).then(
    () => undefined,
    (e: unknown) => e,
  );
  clearInterval(poll);
  peak = Math.max(peak, process.memoryUsage().rss);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(1234);
  expect((error as ApiError).message).toMatch(/decode to more than 64 MB \(reader\.pdf_max_decoded_mb\)/);
  expect(peak - before).toBeLessThan(100 * 1024 * 1024);
}

describe('PDF bomb written the ways pdf.js reads', () => {
  for (const [i, form] of FORMS.entries()) {
    it(`${form.name}: refused naming the bound, RSS < 100 MB; 2 MB of it reads`, async () => {
      expect(pages[`/bomb-${i}.pdf`]?.length).toBeLessThan(400 * 1024);
      await refusedWithin100Mb(`/bomb-${i}.pdf`);
      const { result } = await reader.read({ url: `${origin}/small-${i}.pdf`, return_format: 'text' });
      expect(result.content).toContain('hi');
    }, 60_000);
  }
});

describe('checkPdfStreams reads a stream dictionary as pdf.js does', () => {
  const MB = 1024 * 1024;
  const lzw = lzwBomb();
  const refused = (streams: PdfStream[], extra?: string[]) =>
    expect(checkPdfStreams(pdfOf(streams, extra), 4 * MB, 'the bound')).rejects.toThrow(PdfTooLarge);

  it('takes /F, the last of repeated keys, and no key of a nested dictionary or a string', async () => {
    await refused([{ data: lzw, dict: (n) => `<< /Length ${n} /F /LZWDecode >>` }]);
    await refused([{ data: lzw, dict: (n) => `<< /Length ${n} /Filter /AHx /Filter /LZW >>` }]);
    await refused([
      { data: lzw, dict: (n) => `<< /Length ${n} /T (/Filter /AHx) /DP << /Filter /AHx >> /Filter /LZWDecode >>` },
    ]);
  });

  it('follows an indirect /Filter, filter array item and /Length to where the object is written', async () => {
    await refused([{ data: lzw, dict: (n) => `<< /Length ${n} /Filter 100 0 R >>` }], ['/LZWDecode']);
    await refused([{ data: lzw, dict: (n) => `<< /Length ${n} /Filter [100 0 R] >>` }], ['/LZWDecode']);
    // Run-length data whose first literal run reads `endstream` (then 5 MB of runs): only the length
    // pdf.js reads shows all of it.
    const runs = Buffer.alloc(80_000, 0x20);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 0x81;
    const hidden = Buffer.concat([Buffer.from('\x0a\nendstream\n', 'latin1'), runs]);
    await refused(
      [{ data: hidden, dict: () => '<< /Length 100 0 R /Filter /RunLengthDecode >>' }],
      [`${hidden.length}`],
    );
  });

  it('reads a dictionary of any length, and data after spaces on the keyword line', async () => {
    const pad = `/Pad (${'x'.repeat(6000)})`;
    await refused([{ data: lzw, dict: (n) => `<< /Filter /LZWDecode /Length ${n} ${pad} >>` }]);
    await refused([{ data: lzw, filter: 'LZWDecode', keyword: 'stream \t ' }]);
  });

  it('passes data through a filter it does not know, and honours LZW EarlyChange 0', async () => {
    await refused([{ data: lzw, filter: '[/Crypt /LZWDecode]' }]);
    const late = lzwBomb(0);
    await refused([{ data: late, dict: (n) => `<< /Length ${n} /Filter /LZW /DecodeParms << /EarlyChange 0 >> >>` }]);
  });

  it('refuses a file that writes streams inside one another past reason (each would be read again)', async () => {
    const nested = Buffer.from(`${'0 '.repeat(500)}\nstream\n`.repeat(400), 'latin1');
    await expect(checkPdfStreams(pdfOf([{ data: nested }]), 64 * MB, 'x')).rejects.toThrow(/nests streams/);
  });

  it('counts the whole row a predictor writes, however little data it has', async () => {
    const { deflateSync } = await import('node:zlib');
    const rows = deflateSync(Buffer.alloc(64, 1));
    await refused([
      {
        data: rows,
        dict: (n) => `<< /Length ${n} /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 8000000 >> >>`,
      },
    ]);
  });
});
