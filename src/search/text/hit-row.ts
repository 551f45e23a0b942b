import type { SearchHit } from '../types.js';
import { siteName } from './document.js';
import { makeSnippet } from './snippet.js';

/** A matched document as both SQL backends select it. */
export interface HitRow {
  url: string;
  title: string;
  content: string;
  site: string | null;
  host: string;
  published: string | null;
  score: number;
}

export function hitFromRow(row: HitRow, terms: string[]): SearchHit {
  return {
    url: row.url,
    title: row.title,
    snippet: makeSnippet(row.content, terms),
    site: siteName(row.site, row.host),
    published: row.published ?? undefined,
    score: Number(row.score),
  };
}
