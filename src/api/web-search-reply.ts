import { type Static, Type } from '@sinclair/typebox';
import { PlatformId, ReplyObject, UnixSeconds } from './reply-helpers.js';

/** The spec's "Search result entry" (docs/wire.md, "Reader and web search"). */
export const SearchResultEntry = ReplyObject({
  title: Type.String(),
  content: Type.String(),
  link: Type.String(),
  media: Type.String({ description: "The site's name" }),
  icon: Type.String({ description: "The site's favicon URL, or ''" }),
  refer: Type.String({ description: '`ref_1`, `ref_2`, ... in rank order' }),
  publish_date: Type.String({ description: "`YYYY-MM-DD`, or ''" }),
});
export type SearchResultEntry = Static<typeof SearchResultEntry>;

export const WebSearchReply = ReplyObject({
  id: PlatformId,
  created: UnixSeconds,
  request_id: Type.String(),
  search_result: Type.Array(SearchResultEntry),
});
export type WebSearchReply = Static<typeof WebSearchReply>;
