import type { Pool, PoolClient } from 'pg';
import { bump, DEFAULT_TITLE_WEIGHT, documentTokens, type RankingSettings } from '../ranking/impacts.js';
import { change, type PostingChanges } from '../ranking/posting-blocks.js';
import { DEFAULT_TOP_K, planQuery, type TopKOptions, topK } from '../ranking/top-k.js';
import { queryStems } from '../text/analyze.js';
import { type PreparedDocument, prepareDocument } from '../text/document.js';
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
import { applyPostings } from './postings.js';
import { migrate } from './schema.js';
import { PostgresTiers } from './tiers.js';
import { inTransaction } from './transaction.js';

export interface PostgresFtsOptions {
  /** Weight of a title occurrence relative to one in the body (BM25F). */
  titleWeight?: number;
  /** End the pool on close(): only when the index owns it. */
  endPoolOnClose?: boolean;
  /** Budget of the top-k search (ranking/top-k.ts). */
  topK?: TopKOptions;
}

// PostgreSQL text cannot hold NUL; imported pages sometimes do.
const clean = (s: string) => s.replaceAll('\u0000', '');

// Writers take turns (one transaction-scoped lock per schema): the token counts are read-modify-
// write, and the documents a batch replaces must be the ones whose tokens it subtracts.
const WRITE_LOCK = "SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.search_write'))";

const OLD_TOKENS = `
  SELECT t.id, string_to_array(t.tokens, ' ') AS tokens
  FROM search_documents d JOIN search_terms t ON t.id = d.id
  WHERE (d.collection, d.url) IN (SELECT * FROM unnest($1::text[], $2::text[]))`;

const UPSERT_DOCUMENTS = `
  INSERT INTO search_documents (collection, url, title, content, site, host, published, published_ms)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
  ON CONFLICT (collection, url) DO UPDATE SET
    title = excluded.title, content = excluded.content, site = excluded.site, host = excluded.host,
    published = excluded.published, published_ms = excluded.published_ms
  RETURNING id, collection, url, (xmax = 0) AS inserted`;

const UPSERT_TERMS = `
  INSERT INTO search_terms (id, collection, host, host_key, published_ms, tokens)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[])
  ON CONFLICT (id) DO UPDATE SET collection = excluded.collection, host = excluded.host,
    host_key = excluded.host_key, published_ms = excluded.published_ms, tokens = excluded.tokens`;

// In token order, so that two writers never wait on each other's rows in opposite orders.
const BUMP_TOKENS = `
  INSERT INTO search_token_counts (token, postings)
  SELECT * FROM unnest($1::text[], $2::bigint[]) ORDER BY 1
  ON CONFLICT (token) DO UPDATE SET postings = search_token_counts.postings + excluded.postings`;

const BUMP_COLLECTIONS = `
  INSERT INTO search_collections (collection, documents) SELECT * FROM unnest($1::text[], $2::bigint[])
  ON CONFLICT (collection) DO UPDATE SET documents = search_collections.documents + excluded.documents`;

/** PostgreSQL index: BM25F impacts in a tiered tsvector with GIN (ranking/), analysis in this process. */
export class PostgresFtsIndex implements SearchIndex {
  readonly #pool: Pool;
  readonly #settings: RankingSettings;
  readonly #endPool: boolean;
  readonly #topK: TopKOptions;
  readonly #tiers: PostgresTiers;

  private constructor(pool: Pool, options: PostgresFtsOptions) {
    this.#pool = pool;
    this.#settings = { titleWeight: options.titleWeight ?? DEFAULT_TITLE_WEIGHT };
    this.#endPool = options.endPoolOnClose ?? false;
    this.#topK = options.topK ?? DEFAULT_TOP_K;
    this.#tiers = new PostgresTiers(pool);
  }

  /**
   * Creates the tables in the pool's current schema if missing, then returns the index. After the
   * upgrade from version 1, or when the ranking settings changed, every document's tokens are
   * computed again first (minutes for a million documents).
   */
  static async create(pool: Pool, options: PostgresFtsOptions = {}): Promise<PostgresFtsIndex> {
    const index = new PostgresFtsIndex(pool, options);
    await migrate(pool, async (client, migrated) => {
      const res = await client.query<{ value: string }>("SELECT value FROM search_meta WHERE key = 'ranking'");
      const settings = JSON.stringify(index.#settings);
      if (migrated || res.rows[0]?.value !== settings) await index.#rebuild(client, settings);
    });
    return index;
  }

  async upsert(docs: SearchDocument[]): Promise<void> {
    // Validate all first; within one statement a url may appear once, so the last copy wins.
    const byKey = new Map<string, PreparedDocument>();
    for (const d of docs.map(prepareDocument)) byKey.set(`${d.collection}\u0000${d.url}`, d);
    const rows = [...byKey.values()].map((d) => ({
      d,
      tokens: documentTokens(d.title, d.content, this.#settings).tokens.map(clean),
    }));
    if (rows.length === 0) return;
    await this.#write(async (client, counts, collections, postings) => {
      const col = <T>(f: (d: PreparedDocument) => T) => rows.map((r) => f(r.d));
      const keys = [col((d) => clean(d.collection)), col((d) => clean(d.url))];
      for (const old of (await client.query<{ id: string; tokens: string[] }>(OLD_TOKENS, keys)).rows) {
        bump(counts, old.tokens, -1);
        change(postings, old.tokens, Number(old.id), 'remove');
      }
      const written = await client.query<{ id: string; collection: string; url: string; inserted: boolean }>(
        UPSERT_DOCUMENTS,
        [
          ...keys,
          col((d) => clean(d.title)),
          col((d) => clean(d.content)),
          col((d) => (d.site === null ? null : clean(d.site))),
          col((d) => d.host),
          col((d) => d.published),
          col((d) => d.publishedMs),
        ],
      );
      const ids = new Map(written.rows.map((r) => [`${r.collection}\u0000${r.url}`, r.id]));
      for (const r of written.rows) if (r.inserted) bump(collections, [r.collection], 1);
      const rowIds = rows.map((r) => ids.get(`${clean(r.d.collection)}\u0000${clean(r.d.url)}`)!);
      await client.query(UPSERT_TERMS, [
        rowIds,
        col((d) => clean(d.collection)),
        col((d) => d.host),
        col((d) => hostKey(d.host)),
        col((d) => d.publishedMs),
        rows.map((r) => r.tokens.join(' ')),
      ]);
      rows.forEach((r, i) => {
        bump(counts, r.tokens, 1);
        change(postings, r.tokens, Number(rowIds[i]), 'add');
      });
    });
  }

  async remove(urls: string[], collection = DEFAULT_COLLECTION): Promise<void> {
    if (urls.length === 0) return;
    await this.#write(async (client, counts, collections, postings) => {
      const res = await client.query<{ id: string; tokens: string[] }>(
        `DELETE FROM search_documents d USING search_terms t
         WHERE t.id = d.id AND d.collection = $1 AND d.url = ANY($2::text[])
         RETURNING t.id, string_to_array(t.tokens, ' ') AS tokens`,
        [collection, urls],
      );
      for (const r of res.rows) {
        bump(counts, r.tokens, -1);
        change(postings, r.tokens, Number(r.id), 'remove');
      }
      bump(collections, [collection], -res.rows.length);
    });
  }

  async query(q: SearchQuery): Promise<SearchHit[]> {
    return (await this.queryWithStats(q)).hits;
  }

  /** query(), with what it cost (the benchmark reports it). */
  async queryWithStats(q: SearchQuery): Promise<{ hits: SearchHit[]; exact: boolean; postings: number }> {
    const count = checkCount(q.count);
    const domain = normaliseDomain(q.domain) ?? null;
    const cutoff = recencyCutoff(q.recency, q.now) ?? null;
    const terms = queryTerms(q.text);
    const stems = queryStems(q.text);
    const none = { hits: [], exact: true, postings: 0 };
    if (stems.length === 0) return none;
    const [collections, counts] = await Promise.all([this.#tiers.collections(), this.#tiers.counts(stems)]);
    const documents = [...collections.values()].reduce((a, b) => a + b, 0);
    const plan = planQuery(stems, counts, documents);
    if (plan.segments.length === 0) return none;
    const filter = { collections: q.collections ?? [DEFAULT_COLLECTION], domain, cutoff };
    const reader = this.#tiers.reader(filter, collections);
    const { hits, exact, postings } = await topK(plan, reader, count, this.#topK);
    const res = await this.#pool.query<HitRow & { id: string }>(
      'SELECT id, url, title, content, site, host, published FROM search_documents WHERE id = ANY($1::bigint[])',
      [hits.map((h) => h.id)],
    );
    const rows = new Map(res.rows.map((r) => [Number(r.id), r]));
    return { hits: hits.map((h) => hitFromRow({ ...rows.get(h.id)!, score: h.score }, terms)), exact, postings };
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

  async setOwner(collection: string, owner: string): Promise<void> {
    await this.#pool.query(
      `INSERT INTO search_collection_owners (collection, owner) VALUES ($1, $2)
       ON CONFLICT (collection) DO UPDATE SET owner = excluded.owner`,
      [collection, owner],
    );
  }

  async ownerOf(collection: string): Promise<string | undefined> {
    const res = await this.#pool.query<{ owner: string }>(
      'SELECT owner FROM search_collection_owners WHERE collection = $1',
      [collection],
    );
    return res.rows[0]?.owner;
  }

  async stats(): Promise<{ collection: string; documents: number }[]> {
    const collections = await this.#tiers.collections();
    return [...collections.entries()]
      .map(([collection, documents]) => ({ collection, documents }))
      .sort((a, b) => (a.collection < b.collection ? -1 : 1));
  }

  async close(): Promise<void> {
    if (this.#endPool) await this.#pool.end();
  }

  /**
   * One write transaction under the write lock; the postings, token and collection counts it
   * gathers are applied last.
   */
  async #write(
    body: (
      client: PoolClient,
      counts: Map<string, number>,
      collections: Map<string, number>,
      postings: PostingChanges,
    ) => Promise<void>,
  ): Promise<void> {
    await inTransaction(this.#pool, async (client) => {
      await client.query(WRITE_LOCK);
      const counts = new Map<string, number>();
      const collections = new Map<string, number>();
      const postings: PostingChanges = new Map();
      await body(client, counts, collections, postings);
      await applyPostings(client, postings);
      await applyCounts(client, counts, collections);
    });
  }

  /** Computes every document's tokens again, in the migration's transaction. */
  async #rebuild(client: PoolClient, settings: string): Promise<void> {
    await client.query('TRUNCATE search_terms, search_postings, search_token_counts, search_collections');
    for (let last = '0'; ; ) {
      const page = await client.query<HitRow & { id: string; collection: string; published_ms: string | null }>(
        `SELECT id, collection, host, published_ms, title, content FROM search_documents
         WHERE id > $1 ORDER BY id LIMIT 1000`,
        [last],
      );
      if (page.rows.length === 0) break;
      const counts = new Map<string, number>();
      const collections = new Map<string, number>();
      const tokens = page.rows.map((r) => documentTokens(r.title, r.content, this.#settings).tokens.map(clean));
      await client.query(UPSERT_TERMS, [
        page.rows.map((r) => r.id),
        page.rows.map((r) => r.collection),
        page.rows.map((r) => r.host),
        page.rows.map((r) => hostKey(r.host)),
        page.rows.map((r) => r.published_ms),
        tokens.map((t) => t.join(' ')),
      ]);
      const postings: PostingChanges = new Map();
      tokens.forEach((t, i) => {
        bump(counts, t, 1);
        change(postings, t, Number(page.rows[i]!.id), 'add');
      });
      for (const r of page.rows) bump(collections, [r.collection], 1);
      await applyPostings(client, postings);
      await applyCounts(client, counts, collections);
      last = page.rows.at(-1)!.id;
    }
    await client.query(
      `INSERT INTO search_meta (key, value) VALUES ('ranking', $1)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [settings],
    );
  }
}

async function applyCounts(
  client: PoolClient,
  counts: Map<string, number>,
  collections: Map<string, number>,
): Promise<void> {
  const tokens = [...counts].filter(([, d]) => d !== 0);
  if (tokens.length > 0) await client.query(BUMP_TOKENS, [tokens.map(([t]) => t), tokens.map(([, d]) => d)]);
  const colls = [...collections].filter(([, d]) => d !== 0);
  if (colls.length > 0) await client.query(BUMP_COLLECTIONS, [colls.map(([c]) => c), colls.map(([, d]) => d)]);
}
