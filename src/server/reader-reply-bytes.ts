import type { ReplyIdentity } from '../api/reply-identity.js';

const CLOSE = Buffer.from('}');

/**
 * The reader's reply (api/reader-reply.ts) around a `reader_result` already serialized by the
 * extraction thread: the bytes Fastify's serializer would write for the whole reply, in the schema's
 * field order, with the result copied rather than serialized again on the event loop.
 * test/server/reader-reply-bytes.test.ts holds it to the schema's serializer.
 */
export function readerReplyBytes(identity: ReplyIdentity, result: Uint8Array): Buffer {
  const head =
    `{"id":${JSON.stringify(identity.id)},"created":${identity.created},` +
    `"request_id":${JSON.stringify(identity.requestId)},"model":"reader","reader_result":`;
  return Buffer.concat([Buffer.from(head), result, CLOSE]);
}
