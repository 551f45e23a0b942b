import { type Static, Type } from '@sinclair/typebox';
import { RequestId, UserId } from './common.js';
import { StringEnum } from './schema-helpers.js';

export const RECENCY_FILTERS = ['oneDay', 'oneWeek', 'oneMonth', 'oneYear', 'noLimit'] as const;

export const WebSearchBody = Type.Object({
  search_engine: Type.String({
    minLength: 1,
    default: 'search-prime',
    description: '`search-prime`; the live platform names `search_std`, `search_pro`, ... are aliases.',
  }),
  search_query: Type.String({ minLength: 1, maxLength: 4096 }),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
  search_domain_filter: Type.Optional(Type.String({ description: 'A bare domain; its subdomains match too.' })),
  search_recency_filter: Type.Optional(StringEnum([...RECENCY_FILTERS], { default: 'noLimit' })),
  request_id: Type.Optional(RequestId),
  user_id: Type.Optional(UserId),
});
export type WebSearchBody = Static<typeof WebSearchBody>;
