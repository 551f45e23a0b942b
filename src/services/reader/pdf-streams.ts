import { constants, createInflate, inflateSync } from 'node:zlib';

/**
 * Counts what a PDF's streams decode to before pdf.js sees the file. pdf.js inflates a stream into
 * one ArrayBuffer (growing it by doubling), memory that no heap cap counts: a 300 KB file whose
 * content stream inflates to 300 MB costs the process twice that. Every stream of the file (page
 * contents, fonts, object streams, images alike: a label in the stream's dictionary is no promise
 * of how pdf.js will use it) is decoded here through its filter chain, counting bytes and keeping
 * none of the last stage, until the total passes the bound.
 *
 * Filters that only compress images (DCT, JPX, JBIG2, CCITT) end the count: pdf.js decodes no image
 * to extract text. Encrypted files are refused: their streams cannot be measured without the key.
 */
export class PdfTooLarge extends Error {}

const FILTERS: Record<string, string> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  LZWDecode: 'lzw',
  LZW: 'lzw',
  RunLengthDecode: 'rl',
  RL: 'rl',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'a85',
  A85: 'a85',
};

const STREAM = Buffer.from('stream');
const END = Buffer.from('endstream');

/** Throws PdfTooLarge when the decoded streams pass `maxBytes` in total. */
export async function checkPdfStreams(pdf: Buffer, maxBytes: number, bound: string): Promise<void> {
  const tooLarge = () => new PdfTooLarge(`the PDF's streams decode to more than ${bound}`);
  if (/\/Encrypt\b/.test(pdf.toString('latin1')))
    throw new PdfTooLarge('the PDF is encrypted; its streams cannot be measured before reading');
  let total = 0;
  for (const stream of streams(pdf)) {
    let data = stream.data;
    const chain = stream.filters;
    for (let i = 0; i < chain.length; i++) {
      const last = i === chain.length - 1 || !FILTERS[chain[i + 1] ?? ''];
      const left = maxBytes - total;
      const kind = FILTERS[chain[i] ?? ''];
      if (!kind) break;
      if (last) {
        total += await decodedLength(kind, data, left + 1);
        if (total > maxBytes) throw tooLarge();
        break;
      }
      try {
        data = decode(kind, data, left + 1);
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge();
        break;
      }
      total += data.length;
      if (total > maxBytes) throw tooLarge();
    }
  }
}

interface RawStream {
  data: Buffer;
  filters: string[];
}

/** Each `stream … endstream` of the file with the filters its dictionary names. */
function* streams(pdf: Buffer): Generator<RawStream> {
  let at = 0;
  for (;;) {
    const keyword = pdf.indexOf(STREAM, at);
    if (keyword < 0) return;
    at = keyword + STREAM.length;
    if (keyword >= 3 && pdf.toString('latin1', keyword - 3, keyword) === 'end') continue;
    let start = at;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    if (start === at) continue;
    const dictionary = pdf.toString('latin1', Math.max(0, keyword - 4096), keyword);
    const objects = [...dictionary.matchAll(/\d+\s+\d+\s+obj\b/g)];
    const head = dictionary.slice(objects.at(-1)?.index ?? 0);
    const end = streamEnd(pdf, start, head);
    yield { data: pdf.subarray(start, end), filters: filtersOf(head) };
    at = Math.max(at, end);
  }
}

/** Where pdf.js takes the data to end: at a direct `/Length` that lands on `endstream`, else at the next one. */
function streamEnd(pdf: Buffer, start: number, head: string): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(head);
  if (length) {
    const end = start + Number(length[1]);
    let after = end;
    while (after < pdf.length && after < end + 4 && /\s/.test(String.fromCharCode(pdf[after] ?? 0))) after++;
    if (end <= pdf.length && pdf.subarray(after, after + END.length).equals(END)) return end;
  }
  const next = pdf.indexOf(END, start);
  return next < 0 ? pdf.length : next;
}

const unescapeName = (name: string) =>
  name.replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

function filtersOf(head: string): string[] {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(head);
  if (!filter?.[1]) return [];
  return [...filter[1].matchAll(/\/([^\s/[\]<>()]+)/g)].map((name) => unescapeName(name[1] ?? ''));
}

/** One stage's output, as the next stage's input (at most `limit` bytes, else ERR_BUFFER_TOO_LARGE). */
function decode(kind: string, data: Buffer, limit: number): Buffer {
  switch (kind) {
    case 'flate':
      return inflateSync(data, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH });
    case 'hex': {
      const digits =
        data
          .toString('latin1')
          .split('>')[0]
          ?.replace(/[^0-9a-fA-F]/g, '') ?? '';
      return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
    }
    case 'a85':
      return ascii85(data);
    default: {
      if (decodedLengthSync(kind, data, limit) >= limit)
        throw Object.assign(new Error('too large'), { code: 'ERR_BUFFER_TOO_LARGE' });
      return kind === 'rl' ? runLength(data) : lzwDecode(data);
    }
  }
}

/** The last stage's output length, counted without keeping it (stops past `limit`). */
async function decodedLength(kind: string, data: Buffer, limit: number): Promise<number> {
  if (kind !== 'flate') return kind === 'hex' || kind === 'a85' ? data.length : decodedLengthSync(kind, data, limit);
  return new Promise<number>((resolve) => {
    let total = 0;
    const inflate = createInflate({ chunkSize: 64 * 1024, finishFlush: constants.Z_SYNC_FLUSH });
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total >= limit) {
        inflate.destroy();
        resolve(total);
      }
    });
    inflate.on('end', () => resolve(total));
    inflate.on('error', () => resolve(total));
    inflate.on('close', () => resolve(total));
    inflate.end(data);
  });
}

function decodedLengthSync(kind: string, data: Buffer, limit: number): number {
  if (kind === 'rl') {
    let total = 0;
    for (let i = 0; i < data.length && total < limit; ) {
      const n = data[i] ?? 128;
      if (n === 128) break;
      if (n < 128) {
        total += n + 1;
        i += n + 2;
      } else {
        total += 257 - n;
        i += 2;
      }
    }
    return total;
  }
  let total = 0;
  lzwCodes(data, (length) => {
    total += length;
    return total < limit;
  });
  return total;
}

/**
 * LZW codes as PDF writes them (9 to 12 bits, early change), reporting the length each one decodes
 * to: lengths alone bound the output (a run of codes each one longer than the last is the LZW bomb).
 */
function lzwCodes(data: Buffer, each: (length: number, code: number, previous: number) => boolean): void {
  const lengths = new Uint32Array(4096);
  lengths.fill(1, 0, 256);
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  for (let i = 0; i < data.length; i++) {
    buffer = ((buffer << 8) | (data[i] ?? 0)) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
      bits -= width;
      if (code === 256) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      if (code === 257) return;
      let length: number;
      if (code < next) length = lengths[code] ?? 1;
      else if (code === next && previous >= 0) length = (lengths[previous] ?? 1) + 1;
      else return;
      if (!each(length, code, previous)) return;
      if (previous >= 0 && next < 4096) lengths[next++] = (lengths[previous] ?? 1) + 1;
      previous = code;
      if (next + 1 >= 1 << width && width < 12) width++;
    }
  }
}

function lzwDecode(data: Buffer): Buffer {
  const table: Buffer[] = Array.from({ length: 256 }, (_, n) => Buffer.from([n]));
  const out: Buffer[] = [];
  let last: Buffer | undefined;
  lzwCodes(data, (_length, code, previous) => {
    if (previous < 0) {
      table.length = 258;
      last = undefined;
    }
    const entry = table[code] ?? (last ? Buffer.concat([last, last.subarray(0, 1)]) : Buffer.alloc(0));
    if (last && table.length < 4096) table.push(Buffer.concat([last, entry.subarray(0, 1)]));
    out.push(entry);
    last = entry;
    return true;
  });
  return Buffer.concat(out);
}

function runLength(data: Buffer): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; i < data.length; ) {
    const n = data[i] ?? 128;
    if (n === 128) break;
    if (n < 128) {
      out.push(data.subarray(i + 1, i + n + 2));
      i += n + 2;
    } else {
      out.push(Buffer.alloc(257 - n, data[i + 1] ?? 0));
      i += 2;
    }
  }
  return Buffer.concat(out);
}

function ascii85(data: Buffer): Buffer {
  const text = data.toString('latin1').split('~>')[0]?.replace(/\s/g, '') ?? '';
  const out = Buffer.alloc(text.length * 4 + 4);
  let size = 0;
  let group: number[] = [];
  const put = (digits: number[], bytes: number) => {
    const value = digits.reduce((sum, digit) => sum * 85 + digit, 0);
    for (let b = 0; b < bytes; b++) out[size++] = Math.floor(value / 256 ** (3 - b)) & 255;
  };
  for (const char of text) {
    if (char === 'z' && group.length === 0) {
      size += 4;
      continue;
    }
    group.push(char.charCodeAt(0) - 33);
    if (group.length === 5) {
      put(group, 4);
      group = [];
    }
  }
  if (group.length > 1) {
    const bytes = group.length - 1;
    while (group.length < 5) group.push(84);
    put(group, bytes);
  }
  return out.subarray(0, size);
}
