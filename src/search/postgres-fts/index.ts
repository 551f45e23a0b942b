import type { Pool } from 'pg';
import { type PreparedDocument, prepareDocument } from '../text/document.js';
import { checkCount, normaliseDomain, recencyCutoff } from '../text/filters.js';
import { type HitRow, hitFromRow } from '../text/hit-row.js';
import { queryTerms } from '../text/query-terms.js';
import {
  DEFAULT_COLLECTION,
  type IndexedDocument,
  type SearchDocument,
  type SearchHit,
  type SearchIndex,
  type SearchQuery,
} from '../types.js';
import { rankingSql } from './query-sql.js';
import { migrate } from './schema.js';

export interface PostgresFtsOptions {
  /** ts_rank weight of the title (A) relative to the content (B = 1). */
  titleWeight?: number;
  /** End the pool on close(): only when the index owns it. */
  endPoolOnClose?: boolean;
}

// A tsvector holds at most 1 MB and positions up to 16,383; index the head of a huge page only.
const MAX_INDEXED_CHARS = 200_000;
// PostgreSQL text cannot hold NUL; imported pages sometimes do.
const clean = (s: string) => s.replaceAll('\u0000', '');

const UPSERT = `
  INSERT INTO search_documents (collection, url, title, content, site, host, published, published_ms, tsv)
  SELECT c, u, t, ct, s, h, p, pm,
         setweight(to_tsvector('english', it), 'A') || setweight(to_tsvector('english', ic), 'B')
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
              $8::bigint[], $9::text[], $10::text[]) AS x(c, u, t, ct, s, h, p, pm, it, ic)
  ON CONFLICT (collection, url) DO UPDATE SET
    title = excluded.title, content = excluded.content, site = excluded.site, host = excluded.host,
    published = excluded.published, published_ms = excluded.published_ms, tsv = excluded.tsv`;

/** PostgreSQL full-text index: english stemming, A/B weighted tsvector, GIN, idf-weighted ts_rank. */
export class PostgresFtsIndex implements SearchIndex {
  readonly #pool: Pool;
  readonly #titleWeight: number;
  readonly #endPool: boolean;

  private constructor(pool: Pool, options: PostgresFtsOptions) {
    this.#pool = pool;
    this.#titleWeight = options.titleWeight ?? 2;
    this.#endPool = options.endPoolOnClose ?? false;
  }

  /** Creates the tables in the pool's current schema if missing, then returns the index. */
  static async create(pool: Pool, options: PostgresFtsOptions = {}): Promise<PostgresFtsIndex> {
    await migrate(pool);
    return new PostgresFtsIndex(pool, options);
  }

  async upsert(docs: SearchDocument[]): Promise<void> {
    // Validate all first; within one statement a url may appear once, so the last copy wins.
    const byKey = new Map<string, PreparedDocument>();
    for (const d of docs.map(prepareDocument)) byKey.set(`${d.collection}\u0000${d.url}`, d);
    const rows = [...byKey.values()];
    if (rows.length === 0) return;
    const col = <T>(f: (d: PreparedDocument) => T) => rows.map(f);
    await this.#pool.query(UPSERT, [
      col((d) => clean(d.collection)),
      col((d) => clean(d.url)),
      col((d) => clean(d.title)),
      col((d) => clean(d.content)),
      col((d) => (d.site === null ? null : clean(d.site))),
      col((d) => d.host),
      col((d) => d.published),
      col((d) => d.publishedMs),
      col((d) => clean(d.indexTitle)),
      col((d) => clean(d.indexContent.slice(0, MAX_INDEXED_CHARS))),
    ]);
  }

  async remove(urls: string[], collection = DEFAULT_COLLECTION): Promise<void> {
    if (urls.length === 0) return;
    await this.#pool.query('DELETE FROM search_documents WHERE collection = $1 AND url = ANY($2::text[])', [
      collection,
      urls,
    ]);
  }

  async query(q: SearchQuery): Promise<SearchHit[]> {
    const count = checkCount(q.count);
    const terms = queryTerms(q.text);
    if (terms.length === 0) return [];
    const params = [
      q.collections ?? [DEFAULT_COLLECTION],
      normaliseDomain(q.domain) ?? null,
      recencyCutoff(q.recency, q.now) ?? null,
      count,
      ...terms,
    ];
    const res = await this.#pool.query<HitRow>(rankingSql(terms.length, this.#titleWeight), params);
    return res.rows.map((r) => hitFromRow(r, terms));
  }

  async documents(page: {
    collection?: string | undefined;
    offset: number;
    limit: number;
  }): Promise<IndexedDocument[]> {
    const filter = page.collection === undefined ? '' : 'WHERE collection = $3';
    const res = await this.#pool.query<{
      url: string;
      title: string;
      site: string | null;
      collection: string;
      published: string | null;
      chars: number;
    }>(
      `SELECT url, title, site, collection, published, length(content) AS chars FROM search_documents ${filter} ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [Math.min(100, page.limit), page.offset, ...(page.collection === undefined ? [] : [page.collection])],
    );
    return res.rows.map((r) => ({ ...r, site: r.site ?? undefined, published: r.published ?? undefined }));
  }

  async stats(): Promise<{ collection: string; documents: number }[]> {
    const res = await this.#pool.query<{ collection: string; documents: string }>(
      'SELECT collection, count(*) AS documents FROM search_documents GROUP BY collection ORDER BY collection',
    );
    return res.rows.map((r) => ({ collection: r.collection, documents: Number(r.documents) }));
  }

  async close(): Promise<void> {
    if (this.#endPool) await this.#pool.end();
  }
}
