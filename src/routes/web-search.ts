import { WebSearchBody } from '../api/web-search.js';
import { notConfigured } from './not-configured.js';
import { defineOperation } from './operation.js';

export const webSearch = defineOperation<WebSearchBody>({
  id: 'web_search',
  method: 'POST',
  path: '/web_search',
  base: 'paas',
  summary: 'Search the web index',
  body: WebSearchBody,
  async handle({ body }) {
    throw notConfigured(`Search engine ${body.search_engine}`, 'search');
  },
});
