import { constants, createInflateRaw, inflateRawSync } from 'node:zlib';

/**
 * The decoders of pdf.js's text-bearing filters, for measuring what a stream decodes to: each stage
 * stops past a limit, and the last stage of a chain is counted without keeping its output. Deflated
 * data is inflated past its two-byte header, which the caller checks as pdf.js does (pdf.js accepts
 * any window size and checks no checksum; zlib would refuse the one and stop at the other).
 */

/** The filter names pdf.js decodes (full and abbreviated) by kind; image-only filters are left out. */
export const FILTERS: Record<string, string> = {
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

/** One stage's output, as the next stage's input (at most `limit` bytes, else ERR_BUFFER_TOO_LARGE). */
export function decode(kind: string, data: Buffer, limit: number, earlyChange = 1): Buffer {
  switch (kind) {
    case 'flate':
      return inflateRawSync(data.subarray(2), { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH });
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
      if (decodedLengthSync(kind, data, limit, earlyChange) >= limit)
        throw Object.assign(new Error('too large'), { code: 'ERR_BUFFER_TOO_LARGE' });
      return kind === 'rl' ? runLength(data) : lzwDecode(data, earlyChange);
    }
  }
}

/**
 * The last stage's output length, counted without keeping it (stops past `limit`); for the ASCII
 * filters an upper bound (ASCII85's `z` is four bytes).
 */
export async function decodedLength(kind: string, data: Buffer, limit: number, earlyChange = 1): Promise<number> {
  if (kind === 'hex' || kind === 'a85') return kind === 'hex' ? data.length : data.length * 4;
  if (kind !== 'flate') return decodedLengthSync(kind, data, limit, earlyChange);
  return new Promise<number>((resolve) => {
    let total = 0;
    const inflate = createInflateRaw({ chunkSize: 64 * 1024, finishFlush: constants.Z_SYNC_FLUSH });
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
    inflate.end(data.subarray(2));
  });
}

function decodedLengthSync(kind: string, data: Buffer, limit: number, earlyChange = 1): number {
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
  return lzw(data, earlyChange, limit, false).length;
}

/**
 * pdf.js's LZW decoder (lzw_stream.js), step for step, so that the count is the one pdf.js would
 * reach: a code past the table repeats the previous sequence plus its first byte (however far past),
 * the table grows past 4096 entries without storing them, and `earlyChange` widens the codes one
 * entry early. Stops once the output passes `limit`; keeps the output only when `keep`.
 */
function lzw(data: Buffer, earlyChange: number, limit: number, keep: boolean): { length: number; out: Buffer[] } {
  const values = new Uint8Array(4096);
  const lengths = new Uint16Array(4096);
  const previous = new Uint16Array(4096);
  for (let i = 0; i < 256; i++) {
    values[i] = i;
    lengths[i] = 1;
  }
  const sequence = new Uint8Array(4096);
  const out: Buffer[] = [];
  let sequenceLength = 0;
  let next = 258;
  let width = 9;
  let prevCode = 0;
  let total = 0;
  let bits = 0;
  let cached = 0;
  let at = 0;
  while (total <= limit) {
    while (bits < width && at < data.length) {
      cached = ((cached << 8) | (data[at++] ?? 0)) >>> 0;
      bits += 8;
    }
    if (bits < width) break;
    bits -= width;
    const code = (cached >>> bits) & ((1 << width) - 1);
    const hasPrev = sequenceLength > 0;
    if (code < 256) {
      sequence[0] = code;
      sequenceLength = 1;
    } else if (code >= 258) {
      if (code < next) {
        sequenceLength = lengths[code] ?? 0;
        for (let j = sequenceLength - 1, q = code; j >= 0; j--) {
          sequence[j] = values[q] ?? 0;
          q = previous[q] ?? 0;
        }
      } else sequence[sequenceLength++] = sequence[0] ?? 0;
    } else if (code === 256) {
      width = 9;
      next = 258;
      sequenceLength = 0;
      continue;
    } else break;
    if (hasPrev) {
      previous[next] = prevCode;
      lengths[next] = (lengths[prevCode] ?? 0) + 1;
      values[next] = sequence[0] ?? 0;
      next++;
      const size = next + earlyChange;
      if ((size & (size - 1)) === 0) width = Math.min((Math.log(size) / Math.LN2 + 1) | 0, 12);
    }
    prevCode = code;
    total += sequenceLength;
    if (keep) {
      const bytes = Buffer.alloc(sequenceLength);
      bytes.set(sequence.subarray(0, Math.min(sequenceLength, 4096)));
      out.push(bytes);
    }
  }
  return { length: total, out };
}

function lzwDecode(data: Buffer, earlyChange: number): Buffer {
  return Buffer.concat(lzw(data, earlyChange, Number.POSITIVE_INFINITY, true).out);
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
