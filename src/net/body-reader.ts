import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** Thrown when a body grows past the limit; the stream is destroyed before more is read. */
export class TooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`response larger than ${limit} bytes`);
    this.name = 'TooLargeError';
  }
}

export class UnsupportedEncodingError extends Error {}

const decoderFor = (encoding: string): Transform | undefined => {
  switch (encoding) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      throw new UnsupportedEncodingError(`unsupported content encoding ${encoding}`);
  }
};

/** How far `enough` is asked: a header that needs more than this is read to the end instead. */
const HEAD_LIMIT = 256 * 1024;

/**
 * Reads a body into memory up to `limit` bytes after decompression (a small gzip can expand to
 * gigabytes), and destroys the source as soon as the limit is passed, so memory stays bounded
 * whatever the server sends. With `enough`, reading stops (and the source is destroyed) as soon as
 * the bytes so far tell the caller what it needs, e.g. a file's format from its first bytes; it is
 * asked while the body is under 256 KB.
 */
export async function readBounded(
  body: Readable,
  contentEncoding: string,
  limit: number,
  enough?: (head: Buffer) => boolean,
): Promise<Buffer> {
  const decoder = decoderFor(contentEncoding.trim().toLowerCase());
  const source: Readable = decoder ? body.pipe(decoder) : body;
  if (decoder) body.on('error', (error) => decoder.destroy(error));
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      total += buffer.length;
      if (total > limit) throw new TooLargeError(limit);
      chunks.push(buffer);
      if (enough !== undefined && total <= HEAD_LIMIT && enough(Buffer.concat(chunks, total))) break;
    }
  } finally {
    if (!body.destroyed) body.destroy();
    if (decoder && !decoder.destroyed) decoder.destroy();
  }
  return Buffer.concat(chunks, total);
}
