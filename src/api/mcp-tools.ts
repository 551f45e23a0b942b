import { type Static, Type } from '@sinclair/typebox';
import { ReaderBody } from './reader.js';
import { StringEnum } from './schema-helpers.js';
import { RECENCY_FILTERS, WebSearchBody } from './web-search.js';

/**
 * Arguments of the MCP tool `webSearchPrime` (`/api/mcp/web_search_prime/mcp`), named as the live
 * coding plan's search server names them; the bounds are those of `POST /paas/v4/web_search`.
 */
export const WebSearchPrimeArgs = Type.Object(
  {
    search_query: WebSearchBody.properties.search_query,
    search_domain_filter: WebSearchBody.properties.search_domain_filter,
    search_recency_filter: Type.Optional(
      StringEnum([...RECENCY_FILTERS], {
        default: 'noLimit',
        description: 'How recent the pages are: oneDay, oneWeek, oneMonth, oneYear or noLimit.',
      }),
    ),
    content_size: Type.Optional(
      StringEnum(['medium', 'high'], {
        default: 'medium',
        description: 'How much of each page the results carry; both give the index snippet here.',
      }),
    ),
    location: Type.Optional(
      StringEnum(['cn', 'us'], { description: 'Region of the results; the index has one region, so it is ignored.' }),
    ),
    count: WebSearchBody.properties.count,
  },
  { additionalProperties: false },
);
export type WebSearchPrimeArgs = Static<typeof WebSearchPrimeArgs>;

/**
 * Arguments of the MCP tool `webReader` (`/api/mcp/web_reader/mcp`): the options of
 * `POST /paas/v4/reader`, with the same bounds.
 */
export const WebReaderArgs = Type.Omit(ReaderBody, ['request_id', 'user_id'], { additionalProperties: false });
export type WebReaderArgs = Static<typeof WebReaderArgs>;
