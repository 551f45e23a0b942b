import fastJson from 'fast-json-stringify';
import { ReaderResult } from '../../api/reader-reply.js';
import type { ReaderResult as Result } from './types.js';

/**
 * A result as the reply's `reader_result` writes it: the schema's own serializer (the one Fastify
 * compiles for the reply), then UTF-8. The extraction thread runs it, so that a result of megabytes
 * (a 500-page PDF) costs the event loop a copy of bytes, not a serialization and two encodings.
 */
const stringify = fastJson(ReaderResult);
const encoder = new TextEncoder();

export function resultJson(result: Result): Uint8Array {
  return encoder.encode(stringify(result));
}
