import type { Database, Statement } from 'better-sqlite3';
import { openSqliteFile } from '../../util/sqlite/driver.js';
import { bump, DEFAULT_TITLE_WEIGHT, documentTokens, type RankingSettings } from '../ranking/impacts.js';
import { change, type PostingChanges } from '../ranking/posting-blocks.js';
import { DEFAULT_TOP_K, planQuery, type TopKOptions, topK } from '../ranking/top-k.js';
import { queryStems } from '../text/analyze.js';
import { prepareDocument } from '../text/document.js';
import { checkCount, hostKey, normaliseDomain, recencyCutoff } from '../text/filters.js';
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
import { SqlitePostings } from './postings.js';
import { migrate, readMeta, writeMeta } from './schema.js';
import { SqliteTiers } from './tier-reader.js';

export interface SqliteFtsOptions {
  /**
   * Weight of a title occurrence relative to one in the body. A title states what a page is about
   * in a few words, so a hit there is stronger evidence than one in the body (BM25F's field weights).
   */
  titleWeight?: number;
  /** Budget of the top-k search (ranking/top-k.ts); tests and benchmarks change it. */
  topK?: TopKOptions;
}

export { DEFAULT_TITLE_WEIGHT };

/** What a query cost, for the benchmark: postings read and whether the top-k is proven exact. */
export interface QueryStats {
  hits: SearchHit[];
  exact: boolean;
  postings: number;
}

interface StoredRow {
  id: number;
  tokens: string;
}

/**
 * The embedded search index: SQLite, BM25F impacts in a tiered FTS5 index (ranking/), porter2
 * stemming and CJK segmentation done in this process (text/analyze.ts).
 */
export class SqliteFtsIndex implements SearchIndex {
  readonly #db: Database;
  readonly #ownsDb: boolean;
  readonly #settings: RankingSettings;
  readonly #topK: TopKOptions;
  readonly #tiers: SqliteTiers;
  readonly #find: Statement<[string, string], StoredRow>;
  readonly #insert: Statement<unknown[]>;
  readonly #update: Statement<unknown[]>;
  readonly #postings: SqlitePostings;
  readonly #deleteDoc: Statement<[number]>;
  readonly #bumpToken: Statement<[string, number]>;
  readonly #bumpCollection: Statement<[string, number]>;
  readonly #hitRows: Statement<[string], HitRow & { id: number }>;

  /** `source`: a database file path (opened and owned) or an open database (shared, left open). */
  constructor(source: string | Database, options: SqliteFtsOptions = {}) {
    this.#ownsDb = typeof source === 'string';
    this.#db = typeof source === 'string' ? openSqliteFile(source) : source;
    if (this.#ownsDb) {
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = NORMAL');
      // A write touches the last posting block of every token it adds (tens of thousands for a
      // large batch), spread over the whole table: SQLite's default 2 MiB cache made each of those
      // a read from the OS at a million documents.
      this.#db.pragma('cache_size = -32768');
    }
    this.#settings = { titleWeight: options.titleWeight ?? DEFAULT_TITLE_WEIGHT };
    this.#topK = options.topK ?? DEFAULT_TOP_K;
    const waiting = migrate(this.#db);
    const db = this.#db;
    this.#find = db.prepare('SELECT id, tokens FROM search_documents WHERE collection = ? AND url = ?');
    this.#insert = db.prepare(
      `INSERT INTO search_documents
         (id, collection, host, host_key, published_ms, tokens, url, site, published, title, content)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#update = db.prepare(
      `UPDATE search_documents SET host = ?, host_key = ?, published_ms = ?, tokens = ?, site = ?, published = ?,
         title = ?, content = ? WHERE id = ?`,
    );
    this.#postings = new SqlitePostings(db);
    this.#deleteDoc = db.prepare('DELETE FROM search_documents WHERE id = ?');
    this.#bumpToken = db.prepare(
      `INSERT INTO search_token_counts (token, postings) VALUES (?, ?)
       ON CONFLICT (token) DO UPDATE SET postings = postings + excluded.postings`,
    );
    this.#bumpCollection = db.prepare(
      `INSERT INTO search_collections (collection, documents) VALUES (?, ?)
       ON CONFLICT (collection) DO UPDATE SET documents = documents + excluded.documents`,
    );
    this.#hitRows = db.prepare(
      `SELECT id, url, title, content, site, host, published FROM search_documents
       WHERE id IN (SELECT value FROM json_each(?))`,
    );
    this.#tiers = new SqliteTiers(db, this.#postings);
    if (waiting || readMeta(db, 'ranking') !== JSON.stringify(this.#settings)) this.#rebuild(waiting);
  }

  async upsert(docs: SearchDocument[]): Promise<void> {
    const prepared = docs.map(prepareDocument); // validate all before writing any
    const rows = prepared.map((d) => ({ d, tokens: documentTokens(d.title, d.content, this.#settings).tokens }));
    const write = this.#db.transaction(() => {
      const counts = new Map<string, number>();
      const collections = new Map<string, number>();
      const postings: PostingChanges = new Map();
      for (const { d, tokens } of rows) {
        const text = tokens.join(' ');
        const existing = this.#find.get(d.collection, d.url);
        let id: number;
        if (existing) {
          id = existing.id;
          const old = existing.tokens.split(' ');
          bump(counts, old, -1);
          change(postings, old, id, 'remove');
          this.#update.run(d.host, hostKey(d.host), d.publishedMs, text, d.site, d.published, d.title, d.content, id);
        } else {
          const info = this.#insert.run(
            null,
            d.collection,
            d.host,
            hostKey(d.host),
            d.publishedMs,
            text,
            d.url,
            d.site,
            d.published,
            d.title,
            d.content,
          );
          id = Number(info.lastInsertRowid);
          bump(collections, [d.collection], 1);
        }
        change(postings, tokens, id, 'add');
        bump(counts, tokens, 1);
      }
      this.#postings.apply(postings);
      this.#applyCounts(counts, collections);
    });
    write.immediate();
  }

  async remove(urls: string[], collection = DEFAULT_COLLECTION): Promise<void> {
    const write = this.#db.transaction(() => {
      const counts = new Map<string, number>();
      const postings: PostingChanges = new Map();
      let removed = 0;
      for (const url of urls) {
        const existing = this.#find.get(collection, url);
        if (!existing) continue;
        const old = existing.tokens.split(' ');
        bump(counts, old, -1);
        change(postings, old, existing.id, 'remove');
        this.#deleteDoc.run(existing.id);
        removed++;
      }
      this.#postings.apply(postings);
      this.#applyCounts(counts, new Map([[collection, -removed]]));
    });
    write.immediate();
  }

  async query(q: SearchQuery): Promise<SearchHit[]> {
    return (await this.queryWithStats(q)).hits;
  }

  /** query(), with what it cost (the benchmark reports it). */
  async queryWithStats(q: SearchQuery): Promise<QueryStats> {
    const count = checkCount(q.count);
    const domain = normaliseDomain(q.domain) ?? null;
    const cutoff = recencyCutoff(q.recency, q.now) ?? null;
    const terms = queryTerms(q.text);
    const stems = queryStems(q.text);
    const none = { hits: [], exact: true, postings: 0 };
    if (stems.length === 0) return none;
    const collections = this.#tiers.collections();
    const documents = [...collections.values()].reduce((a, b) => a + b, 0);
    const plan = planQuery(stems, this.#tiers.counts(stems), documents);
    if (plan.segments.length === 0) return none;
    const filter = { collections: q.collections ?? [DEFAULT_COLLECTION], domain, cutoff };
    const { hits, exact, postings } = await topK(plan, this.#tiers.reader(filter, collections), count, this.#topK);
    const rows = new Map(this.#hitRows.all(JSON.stringify(hits.map((h) => h.id))).map((r) => [r.id, r]));
    return { hits: hits.map((h) => hitFromRow({ ...rows.get(h.id)!, score: h.score }, terms)), exact, postings };
  }

  async setOwner(collection: string, owner: string): Promise<void> {
    this.#db
      .prepare('INSERT OR REPLACE INTO search_collection_owners (collection, owner) VALUES (?, ?)')
      .run(collection, owner);
  }

  async ownerOf(collection: string): Promise<string | undefined> {
    const row = this.#db.prepare('SELECT owner FROM search_collection_owners WHERE collection = ?').get(collection) as
      | { owner: string }
      | undefined;
    return row?.owner;
  }

  async stats(): Promise<{ collection: string; documents: number }[]> {
    return [...this.#tiers.collections().entries()]
      .map(([collection, documents]) => ({ collection, documents }))
      .sort((a, b) => (a.collection < b.collection ? -1 : 1));
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

  #applyCounts(counts: Map<string, number>, collections: Map<string, number>): void {
    // Sorted: B-tree inserts in key order touch each page once.
    for (const [token, delta] of [...counts].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (delta !== 0) this.#bumpToken.run(token, delta);
    }
    for (const [collection, delta] of collections) if (delta !== 0) this.#bumpCollection.run(collection, delta);
  }

  /**
   * Computes every document's tokens again: after the upgrade from version 1 (its rows wait in
   * search_documents_v1) or when the ranking settings changed. Minutes for a million documents.
   */
  #rebuild(fromV1: boolean): void {
    const db = this.#db;
    const page = db.prepare(
      `SELECT id, collection, host, published_ms, url, site, published, title, content
       FROM ${fromV1 ? 'search_documents_v1' : 'search_documents'} WHERE id > ? ORDER BY id LIMIT 1000`,
    );
    const setTokens = db.prepare('UPDATE search_documents SET tokens = ? WHERE id = ?');
    const run = db.transaction(() => {
      db.exec('DELETE FROM search_postings; DELETE FROM search_token_counts; DELETE FROM search_collections');
      for (let last = 0; ; ) {
        const batch = page.all(last) as (HitRow & { id: number; collection: string; published_ms: number | null })[];
        if (batch.length === 0) break;
        const counts = new Map<string, number>();
        const collections = new Map<string, number>();
        const postings: PostingChanges = new Map();
        for (const r of batch) {
          const { tokens } = documentTokens(r.title, r.content, this.#settings);
          const text = tokens.join(' ');
          if (!fromV1) setTokens.run(text, r.id);
          else {
            const { id, collection, host, published_ms, url, site, published, title, content } = r;
            this.#insert.run(
              id,
              collection,
              host,
              hostKey(host),
              published_ms,
              text,
              url,
              site,
              published,
              title,
              content,
            );
          }
          change(postings, tokens, r.id, 'add');
          bump(counts, tokens, 1);
          bump(collections, [r.collection], 1);
        }
        this.#postings.apply(postings);
        this.#applyCounts(counts, collections);
        last = batch.at(-1)!.id;
      }
      if (fromV1) db.exec('DROP TABLE search_documents_v1');
      writeMeta(db, 'ranking', JSON.stringify(this.#settings));
    });
    run.immediate();
  }
}
