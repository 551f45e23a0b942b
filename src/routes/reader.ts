import { ReaderBody } from '../api/reader.js';
import { ReaderReply } from '../api/reader-reply.js';
import { JSON_TYPE } from '../server/json-type.js';
import { readerReplyBytes } from '../server/reader-reply-bytes.js';
import { defineOperation } from './operation.js';

export const reader = defineOperation<ReaderBody, typeof ReaderReply>({
  id: 'reader',
  method: 'POST',
  path: '/reader',
  base: 'paas',
  summary: 'Read a web page as markdown, text or HTML',
  body: ReaderBody,
  reply: ReaderReply,
  async handle({ body, services, identity, signal, tenant, reply }) {
    const { request_id: _requestId, user_id: _userId, ...options } = body;
    const output = await services.reader.read(options, { signal, tenant, index: true });
    // The reply of the schema, with the result as the extraction thread serialized it.
    reply.type(JSON_TYPE).send(readerReplyBytes(identity, output.json));
    return undefined;
  },
});
