import BetterSqlite3, { type Database, type Statement } from 'better-sqlite3';
import { prepareDocument } from '../text/document.js';
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
import { ftsMatch } from './match.js';
import { migrate } from './schema.js';

export interface SqliteFtsOptions {
  /**
   * BM25 weight of a title hit relative to a content hit. A title states what a page is about in a
   * few words, so a hit there is stronger evidence than one in the body (BM25F's field weights).
   */
  titleWeight?: number;
}

export const DEFAULT_TITLE_WEIGHT = 2;
/** Matches ranked before filtering; see the query statements. */
const RANK_WINDOW = 200;

interface QueryParams {
  titleWeight: number;
  match: string;
  collections: string;
  domain: string | null;
  cutoff: number | null;
  count: number;
}

/** The embedded search index: SQLite FTS5, porter stemming, BM25 with a title weight. */
export class SqliteFtsIndex implements SearchIndex {
  readonly #db: Database;
  readonly #ownsDb: boolean;
  readonly #titleWeight: number;
  readonly #find: Statement<[string, string], { id: number }>;
  readonly #insert: Statement<unknown[]>;
  readonly #update: Statement<unknown[]>;
  readonly #insertFts: Statement<[number, string, string]>;
  readonly #deleteFts: Statement<[number]>;
  readonly #deleteDoc: Statement<[number]>;
  readonly #queryWindow: Statement<[QueryParams & { window: number }], HitRow>;
  readonly #queryAll: Statement<[QueryParams], HitRow>;

  /** `source`: a database file path (opened and owned) or an open database (shared, left open). */
  constructor(source: string | Database, options: SqliteFtsOptions = {}) {
    this.#ownsDb = typeof source === 'string';
    this.#db = typeof source === 'string' ? new BetterSqlite3(source) : source;
    if (this.#ownsDb) {
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = NORMAL');
    }
    this.#titleWeight = options.titleWeight ?? DEFAULT_TITLE_WEIGHT;
    migrate(this.#db);
    const db = this.#db;
    this.#find = db.prepare('SELECT id FROM search_documents WHERE collection = ? AND url = ?');
    this.#insert = db.prepare(
      `INSERT INTO search_documents (collection, url, title, content, site, host, published, published_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#update = db.prepare(
      `UPDATE search_documents SET title = ?, content = ?, site = ?, host = ?, published = ?, published_ms = ?
       WHERE id = ?`,
    );
    this.#insertFts = db.prepare('INSERT INTO search_fts (rowid, title, content) VALUES (?, ?, ?)');
    this.#deleteFts = db.prepare('DELETE FROM search_fts WHERE rowid = ?');
    this.#deleteDoc = db.prepare('DELETE FROM search_documents WHERE id = ?');
    // Ranking reads only the FTS index; joining every matching row to its document first costs
    // ~4x more at 100k pages. So the best `window` matches are ranked alone, then filtered; when
    // fewer than `count` pass and the window was full, the query runs again over all matches
    // (`LIMIT -1`, no limit). Either way the answer is the exact top `count` that pass the filters.
    const sql = (window: string) =>
      `SELECT d.url, d.title, d.content, d.site, d.host, d.published, f.score
       FROM (SELECT rowid AS id, -bm25(search_fts, @titleWeight, 1.0) AS score
             FROM search_fts WHERE search_fts MATCH @match ORDER BY score DESC LIMIT ${window}) f
       JOIN search_documents d ON d.id = f.id
       WHERE d.collection IN (SELECT value FROM json_each(@collections))
         AND (@domain IS NULL OR d.host = @domain OR substr(d.host, -length(@domain) - 1) = '.' || @domain)
         AND (@cutoff IS NULL OR d.published_ms >= @cutoff)
       ORDER BY f.score DESC
       LIMIT @count`;
    this.#queryWindow = db.prepare(sql('@window'));
    this.#queryAll = db.prepare(sql('-1'));
  }

  async upsert(docs: SearchDocument[]): Promise<void> {
    const prepared = docs.map(prepareDocument); // validate all before writing any
    const write = this.#db.transaction(() => {
      for (const d of prepared) {
        const existing = this.#find.get(d.collection, d.url);
        let id: number;
        if (existing) {
          id = existing.id;
          this.#update.run(d.title, d.content, d.site, d.host, d.published, d.publishedMs, id);
          this.#deleteFts.run(id);
        } else {
          const info = this.#insert.run(
            d.collection,
            d.url,
            d.title,
            d.content,
            d.site,
            d.host,
            d.published,
            d.publishedMs,
          );
          id = Number(info.lastInsertRowid);
        }
        this.#insertFts.run(id, d.indexTitle, d.indexContent);
      }
    });
    write.immediate();
  }

  async remove(urls: string[], collection = DEFAULT_COLLECTION): Promise<void> {
    const write = this.#db.transaction(() => {
      for (const url of urls) {
        const existing = this.#find.get(collection, url);
        if (!existing) continue;
        this.#deleteFts.run(existing.id);
        this.#deleteDoc.run(existing.id);
      }
    });
    write.immediate();
  }

  async query(q: SearchQuery): Promise<SearchHit[]> {
    const terms = queryTerms(q.text);
    if (terms.length === 0) return [];
    const domain = normaliseDomain(q.domain) ?? null;
    const cutoff = recencyCutoff(q.recency, q.now) ?? null;
    const collections = JSON.stringify(q.collections ?? [DEFAULT_COLLECTION]);
    const params: QueryParams = {
      titleWeight: this.#titleWeight,
      match: ftsMatch(terms),
      collections,
      domain,
      cutoff,
      count: checkCount(q.count),
    };
    const window = Math.max(RANK_WINDOW, params.count * 4);
    let rows = this.#queryWindow.all({ ...params, window });
    // Short answer: either few documents match at all (the full query is then cheap too) or the
    // filters dropped part of the window.
    if (rows.length < params.count) rows = this.#queryAll.all(params);
    return rows.map((r) => hitFromRow(r, terms));
  }

  async stats(): Promise<{ collection: string; documents: number }[]> {
    return this.#db
      .prepare('SELECT collection, count(*) AS documents FROM search_documents GROUP BY collection ORDER BY collection')
      .all() as { collection: string; documents: number }[];
  }

  async documents(page: {
    collection?: string | undefined;
    offset: number;
    limit: number;
  }): Promise<IndexedDocument[]> {
    const where = page.collection === undefined ? '' : 'WHERE collection = @collection';
    const rows = this.#db
      .prepare(
        `SELECT url, title, site, collection, published, length(content) AS chars FROM search_documents ${where} ORDER BY id DESC LIMIT @limit OFFSET @offset`,
      )
      .all({ ...page, limit: Math.min(100, page.limit) }) as (Omit<IndexedDocument, 'site' | 'published'> & {
      site: string | null;
      published: string | null;
    })[];
    return rows.map((r) => ({ ...r, site: r.site ?? undefined, published: r.published ?? undefined }));
  }

  async close(): Promise<void> {
    if (this.#ownsDb && this.#db.open) this.#db.close();
  }
}
