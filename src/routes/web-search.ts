import { WebSearchBody } from '../api/web-search.js';
import { WebSearchReply } from '../api/web-search-reply.js';
import { defineOperation } from './operation.js';

export const webSearch = defineOperation<WebSearchBody, typeof WebSearchReply>({
  id: 'web_search',
  method: 'POST',
  path: '/web_search',
  base: 'paas',
  summary: 'Search the web index',
  body: WebSearchBody,
  reply: WebSearchReply,
  async handle({ body, services, identity }) {
    const results = await services.search.search({
      engine: body.search_engine,
      query: body.search_query,
      count: body.count ?? 10,
      domain: body.search_domain_filter,
      recency: body.search_recency_filter,
    });
    return { id: identity.id, created: identity.created, request_id: identity.requestId, search_result: results };
  },
});
