import { hostOf } from './text/document.js';
import type { SearchHit } from './types.js';

/** The API's search result entry (spec: "Search result entry"; docs/wire.md, "Reader and web search"). */
export interface SearchResultEntry {
  title: string;
  content: string;
  link: string;
  media: string;
  icon: string;
  refer: string;
  publish_date: string;
}

/** Hits, in rank order, as API entries: `refer` is `ref_1`, `ref_2`, ... */
export function toResultEntries(hits: SearchHit[]): SearchResultEntry[] {
  return hits.map((hit, i) => {
    const host = hostOf(hit.url) ?? '';
    return {
      title: hit.title,
      content: hit.snippet,
      link: hit.url,
      media: hit.site || host.replace(/^www\./, ''),
      icon: host ? `https://${host}/favicon.ico` : '',
      refer: `ref_${i + 1}`,
      publish_date: publishDate(hit.published),
    };
  });
}

/** `YYYY-MM-DD` (UTC) of a hit's publish date, or '' when it has none. */
function publishDate(published: string | undefined): string {
  if (!published) return '';
  const ms = Date.parse(published);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString().slice(0, 10);
}
