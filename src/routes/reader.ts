import { ReaderBody } from '../api/reader.js';
import { newPlatformId, unixSeconds } from '../server/ids.js';
import { defineOperation } from './operation.js';

export const reader = defineOperation<ReaderBody>({
  id: 'reader',
  method: 'POST',
  path: '/reader',
  base: 'paas',
  summary: 'Read a web page as markdown, text or HTML',
  body: ReaderBody,
  async handle({ body, services, clientRequestId, signal }) {
    const { request_id: _requestId, user_id: _userId, ...request } = body;
    const result = await services.reader.read(request, signal);
    const id = newPlatformId();
    return { id, created: unixSeconds(), request_id: clientRequestId ?? id, model: 'reader', reader_result: result };
  },
});
