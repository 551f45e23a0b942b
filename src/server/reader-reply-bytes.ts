import { jsonBytesWriter, RawJson } from '../api/json-writer.js';
import { ReaderReply } from '../api/reader-reply.js';
import type { ReplyIdentity } from '../api/reply-identity.js';

const writeReply = jsonBytesWriter<Omit<ReaderReply, 'reader_result'> & { reader_result: RawJson }>(ReaderReply);

/**
 * The reader's reply around a `reader_result` the extraction thread wrote already: the bytes
 * Fastify's serializer writes for the reply's schema, with the result copied in rather than parsed
 * and written again on the event loop.
 */
export function readerReplyBytes(identity: ReplyIdentity, result: Uint8Array): Buffer {
  return writeReply({
    id: identity.id,
    created: identity.created,
    request_id: identity.requestId,
    model: 'reader',
    reader_result: new RawJson(result),
  });
}
