/**
 * The search-index seam (docs/architecture.md, "Seams"). Routes and services see only these types; the embedded
 * SQLite FTS5 index, the PostgreSQL full-text index and upstream engines (SearXNG) live behind them.
 */

export type Recency = 'oneDay' | 'oneWeek' | 'oneMonth' | 'oneYear' | 'noLimit';

export const DEFAULT_COLLECTION = 'web';

export interface SearchDocument {
  url: string;
  title: string;
  content: string;
  /** Site name shown as `media`; the host without `www.` when absent. */
  site?: string;
  /** ISO 8601 date or date-time. Undated documents never pass a recency filter. */
  published?: string;
  /** Default `web`. The retrieval tool's `knowledge_id` names a collection. */
  collection?: string;
}

export interface SearchQuery {
  text: string;
  /** 1-50. */
  count: number;
  /** Absent or undefined: `['web']`. */
  collections?: string[] | undefined;
  /** A bare domain: matches that host and its subdomains; absent, undefined or blank: any. */
  domain?: string | undefined;
  /** Absent or undefined: any age. */
  recency?: Recency | undefined;
  /** The clock for the recency filter; tests fix it. */
  now?: Date | undefined;
}

export interface SearchHit {
  url: string;
  title: string;
  /** A window of the content around the matched terms. */
  snippet: string;
  /** Site name: the document's `site`, or its host without `www.`. */
  site: string;
  /** ISO 8601, as normalised at indexing; absent or undefined when undated. */
  published?: string | undefined;
  /** Higher is better; comparable only within one answer. */
  score: number;
}

/** Query-only: what an upstream engine such as SearXNG offers. */
export interface SearchEngine {
  query(q: SearchQuery): Promise<SearchHit[]>;
  close(): Promise<void>;
}

/** An index the platform owns and fills. */
export interface SearchIndex extends SearchEngine {
  /** Insert or replace by (collection, url). One transaction per call. */
  upsert(docs: SearchDocument[]): Promise<void>;
  /** Remove by url from one collection (default `web`). Unknown urls are ignored. */
  remove(urls: string[], collection?: string): Promise<void>;
  stats(): Promise<{ collection: string; documents: number }[]>;
  /** Gives `collection` to `owner` (an opaque name, e.g. `account:<id>`), replacing any earlier owner. */
  setOwner(collection: string, owner: string): Promise<void>;
  /** Who `collection` belongs to; undefined when no owner was ever set (the admin's). */
  ownerOf(collection: string): Promise<string | undefined>;
  /** Documents as they were indexed, the latest first (what the console lists); `limit` at most 100. */
  documents(page: { collection?: string | undefined; offset: number; limit: number }): Promise<IndexedDocument[]>;
}

/** A document in the index without its text. */
export interface IndexedDocument {
  url: string;
  title: string;
  site: string | undefined;
  collection: string;
  published: string | undefined;
  /** Length of its text in characters. */
  chars: number;
}
