import { createDeflate, deflateSync } from 'node:zlib';

/**
 * Pages that cost the reader a lot once fetched: a huge page of tiny elements (seconds of parsing,
 * hundreds of MB of DOM), a long PDF, and a PDF whose one page inflates to hundreds of MB.
 */

/** `bytes` of HTML made of tiny spans: the costliest shape per byte for a DOM. */
export function hugeHtml(bytes: number): string {
  const cell = '<span>a</span>';
  return `<!doctype html><html><head><title>Huge</title></head><body><div>${cell.repeat(
    Math.ceil(bytes / cell.length),
  )}</div></body></html>`;
}

/**
 * A page's content stream for pdfOf: its data (already encoded) and its filter, or its whole
 * dictionary (`dict(length)`); `keyword` is what the `stream` line holds (default `stream`).
 */
export interface PdfStream {
  data: Buffer;
  filter?: string;
  dict?: (length: number) => string;
  keyword?: string;
}

/**
 * A PDF of the given page streams, with a Helvetica font, `extra` objects (from id 100 on, e.g. a
 * filter name written as an object of its own) and correct offsets.
 */
export function pdfOf(streams: PdfStream[], extra: string[] = []): Buffer {
  const pageIds = streams.map((_, i) => 4 + i * 2);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: string | Buffer) => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (id: number, body: string | Buffer[]) => {
    offsets[id] = length;
    push(`${id} 0 obj\n`);
    if (typeof body === 'string') push(body);
    else for (const chunk of body) push(chunk);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`);
  object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  streams.forEach((stream, i) => {
    const page = pageIds[i] as number;
    object(
      page,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${page + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
    );
    const filter = stream.filter ? ` /Filter ${stream.filter.startsWith('[') ? '' : '/'}${stream.filter}` : '';
    const dict = stream.dict?.(stream.data.length) ?? `<< /Length ${stream.data.length}${filter} >>`;
    object(page + 1, [
      Buffer.from(`${dict}\n${stream.keyword ?? 'stream'}\n`, 'latin1'),
      stream.data,
      Buffer.from('\nendstream', 'latin1'),
    ]);
  });
  for (const [i, body] of extra.entries()) object(100 + i, body);
  const size = extra.length ? 100 + extra.length : 4 + streams.length * 2;
  const xref = length;
  push(`xref\n0 ${size}\n0000000000 65535 f \n`);
  for (let id = 1; id < size; id++)
    push(offsets[id] === undefined ? '0000000000 65535 f \n' : `${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

const line = (n: number) =>
  `(Line ${n}: the tidal turbines of the strait turned through the night while the crews slept.) Tj T*`;

/** `pages` pages of 50 lines of text each. */
export function longPdf(pages: number): Buffer {
  const lines = Array.from({ length: 50 }, (_, n) => line(n)).join('\n');
  const stream = Buffer.from(`BT /F1 10 Tf 12 TL 40 760 Td\n${lines}\nET`, 'latin1');
  return pdfOf(Array.from({ length: pages }, () => ({ data: deflateSync(stream), filter: 'FlateDecode' })));
}

/** One page whose compressed content (about 1 MB) inflates to `inflatedMb` MB of text operators. */
export function pdfBomb(inflatedMb: number): Buffer {
  const chunk = Buffer.from(`${line(1)}\n`.repeat(10_000), 'latin1');
  const body = Buffer.concat([
    Buffer.from('BT /F1 10 Tf 12 TL 40 760 Td\n', 'latin1'),
    ...Array.from({ length: Math.ceil((inflatedMb * 1024 * 1024) / chunk.length) }, () => chunk),
    Buffer.from('ET', 'latin1'),
  ]);
  return pdfOf([{ data: deflateSync(body, { level: 9 }), filter: 'FlateDecode' }]);
}

/**
 * One page whose content stream is a line of text followed by `inflatedMb` MB of spaces, deflated at
 * level 9 (about 1 KB per MB), deflated again `layers - 1` more times (each layer named in the filter).
 */
export async function spaceBomb(inflatedMb: number, layers = 1): Promise<Buffer> {
  const data = await spaceBombData(inflatedMb, layers);
  const filter = layers === 1 ? 'FlateDecode' : `[${' /FlateDecode'.repeat(layers).trim()}]`;
  return pdfOf([{ data, filter }]);
}

/** spaceBomb's content stream alone, deflated `layers` times. */
export async function spaceBombData(inflatedMb: number, layers = 1): Promise<Buffer> {
  let data = await deflated(function* () {
    yield Buffer.from('BT /F1 10 Tf 40 760 Td (hi) Tj ET\n', 'latin1');
    const spaces = Buffer.alloc(1024 * 1024, 0x20);
    for (let n = 0; n < inflatedMb; n++) yield spaces;
  });
  for (let n = 1; n < layers; n++) data = deflateSync(data, { level: 9 });
  return data;
}

async function deflated(chunks: () => Generator<Buffer>): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (const chunk of chunks()) if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/**
 * An LZW stream whose codes decode one byte longer each (~7 MB from 5 KB): LZW data has no header a
 * scan could recognise, so these show the dictionary itself is read as pdf.js reads it.
 */
export function lzwBomb(earlyChange = 1): Buffer {
  const codes: number[] = [256, 32];
  for (let code = 258; code < 4095; code++) codes.push(code);
  let bits = '';
  let width = 9;
  let next = 258;
  for (const [i, code] of codes.entries()) {
    bits += code.toString(2).padStart(width, '0');
    if (i >= 2) next++;
    if (next + earlyChange >= 1 << width && width < 12) width++;
  }
  return Buffer.from(
    bits
      .padEnd(Math.ceil(bits.length / 8) * 8, '0')
      .match(/.{8}/g)
      ?.map((b) => Number.parseInt(b, 2)) ?? [],
  );
}
