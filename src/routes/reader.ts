import { ReaderBody } from '../api/reader.js';
import { notConfigured } from './not-configured.js';
import { defineOperation } from './operation.js';

export const reader = defineOperation<ReaderBody>({
  id: 'reader',
  method: 'POST',
  path: '/reader',
  base: 'paas',
  summary: 'Read a web page as markdown, text or HTML',
  body: ReaderBody,
  async handle() {
    throw notConfigured('The web reader', 'reader');
  },
});
