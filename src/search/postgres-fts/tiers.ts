import type { Pool, QueryResultRow } from 'pg';
import { Accumulator } from '../ranking/accumulator.js';
import { stemTokens } from '../ranking/impacts.js';
import { excludesMany, passesFilter, type QueryFilter } from '../ranking/query-filter.js';
import {
  BroadFilters,
  leftAfter,
  membership,
  RESTRICT_MAX,
  type Restriction,
  type RestrictionSql,
  restrictionReads,
} from '../ranking/restriction.js';
import { type Candidate, checkedCandidates, type TierReader } from '../ranking/top-k.js';
import { readBlocks } from './postings.js';

// A candidate's tokens as stored ('atoken btoken ...'), matched here (top-k.ts, levelIn): picking
// the query's stems out in SQL (unnest and compare every token of every row) cost 3-4x as much as
// sending the whole text, 18-30 against 6-7 ms for 400 rows at 100k.
const CANDIDATES = `
  SELECT t.id, t.collection, t.host, t.published_ms, t.tokens
  FROM search_terms t WHERE t.id = ANY($1::bigint[])`;
// With filters that may exclude many: their columns first (the narrow row, half the cost), then
// the tokens of those that pass.
const FILTER_COLUMNS = `
  SELECT t.id, t.collection, t.host, t.published_ms FROM search_terms t WHERE t.id = ANY($1::bigint[])`;
const TOKENS = 'SELECT t.id, t.tokens FROM search_terms t WHERE t.id = ANY($1::bigint[])';

/**
 * From this many ids, a read by id is sent as two statements at once, each with half: the rows are
 * fetched at random from the heap and its toast, work that two backends share (256 candidates at
 * 1M: 4.5-5 against 3.1-3.8 ms; four statements did no better on two cores).
 */
const SPLIT_READ = 128;

interface FilterRow {
  id: string;
  collection: string;
  host: string;
  published_ms: string | null;
}

interface CandidateRow extends FilterRow {
  tokens: string;
}

/** Reads the PostgreSQL tiered index for ranking/top-k.ts. */
export class PostgresTiers {
  readonly #accumulator = new Accumulator();
  readonly #broad = new BroadFilters();

  constructor(private readonly pool: Pool) {}

  async collections(): Promise<Map<string, number>> {
    const res = await this.pool.query<{ collection: string; documents: string }>(
      'SELECT collection, documents FROM search_collections WHERE documents > 0',
    );
    return new Map(res.rows.map((r) => [r.collection, Number(r.documents)]));
  }

  async counts(stems: string[]): Promise<Map<string, number>> {
    const res = await this.pool.query<{ token: string; postings: string }>(
      'SELECT token, postings FROM search_token_counts WHERE token = ANY($1::text[])',
      [stems.flatMap(stemTokens)],
    );
    return new Map(res.rows.map((r) => [r.token, Number(r.postings)]));
  }

  reader(filter: QueryFilter, collections: Map<string, number>): TierReader {
    const passes = (r: FilterRow) =>
      passesFilter(filter, {
        collection: r.collection,
        host: r.host,
        publishedMs: r.published_ms === null ? null : Number(r.published_ms),
      });
    let restriction: Promise<Restriction | undefined> | undefined;
    return {
      partialTop: async (segments, limit) => {
        restriction ??= this.#restriction(filter, collections);
        const [restricted, blocks] = await Promise.all([
          restriction,
          readBlocks(
            this.pool,
            segments.map((s) => s.token),
          ),
        ]);
        const weights = new Map(segments.map((s) => [s.token, s.weight]));
        // Synchronous from the first posting to top(): no other query can touch the accumulator.
        for (const b of blocks) this.#accumulator.add(b.ids, weights.get(b.token)!, restricted?.allowed);
        return this.#accumulator.top(limit);
      },
      fewDocuments: async (max) => {
        restriction ??= this.#restriction(filter, collections);
        const restricted = await restriction;
        return restricted && restricted.ids.length <= max ? restricted.ids : undefined;
      },
      candidates: async (ids) => {
        // partialTop() came first and read the restriction.
        const restricted = await restriction;
        const left = restricted ? leftAfter(filter, restricted.by, collections) : filter;
        if (!excludesMany(left, collections)) {
          const rows = await this.#byIds<CandidateRow>(CANDIDATES, ids);
          return rows.map((r): Candidate => ({ id: Number(r.id), tokens: r.tokens, passes: passes(r) }));
        }
        const checked = await this.#byIds<FilterRow>(FILTER_COLUMNS, ids);
        const kept = checked.filter(passes).map((r) => Number(r.id));
        return checkedCandidates(ids, kept, async (some) => {
          const rows = await this.#byIds<{ id: string; tokens: string }>(TOKENS, some);
          return rows.map((r) => ({ id: Number(r.id), tokens: r.tokens }));
        });
      },
    };
  }

  /** The rows of `sql` (which takes the ids as $1) for the ids, in any order. */
  async #byIds<Row extends QueryResultRow>(sql: string, ids: number[]): Promise<Row[]> {
    if (ids.length < SPLIT_READ) return (await this.pool.query<Row>(sql, [ids])).rows;
    const half = ids.length >> 1;
    const [first, second] = await Promise.all([
      this.pool.query<Row>(sql, [ids.slice(0, half)]),
      this.pool.query<Row>(sql, [ids.slice(half)]),
    ]);
    return first.rows.concat(second.rows);
  }

  /**
   * The documents a selective filter passes, as a membership test; undefined when every filter is
   * broad. Each filter's ids come from an index that carries them (an index-only scan once the table
   * is vacuumed), at most RESTRICT_MAX + 1 of them (none for a filter lately found broader:
   * BroadFilters); the first that fits is used, the others are checked on the candidates (on their
   * filter columns first: leftAfter, excludesMany).
   */
  async #restriction(filter: QueryFilter, collections: Map<string, number>): Promise<Restriction | undefined> {
    const now = Date.now();
    for (const { sql, params, by, key } of restrictionReads(filter, collections, PG_RESTRICTION)) {
      if (this.#broad.has(key, now)) continue;
      // One row of text, not a row per id: node-postgres makes an object of every row, and 20,000
      // of them cost 10-30 ms of this thread against 2.5-4 ms to split the list. A filter that
      // passes too many sends only its count (5 ms sooner, and nothing to split).
      const res = await this.pool.query<{ ids: string | null; passing: string }>(
        `SELECT CASE WHEN count(*) <= ${RESTRICT_MAX} THEN string_agg(id::text, ',') END AS ids, count(*) AS passing
         FROM (${sql} LIMIT ${RESTRICT_MAX + 1}) AS passing`,
        params,
      );
      const row = res.rows[0];
      if (row && Number(row.passing) <= RESTRICT_MAX) {
        const ids = row.ids ? row.ids.split(',').map(Number) : [];
        return { ids, allowed: membership(ids), by };
      }
      this.#broad.add(key, now);
    }
    return undefined;
  }
}

/** The filters' id reads on PostgreSQL (host and date on the narrow terms table, with their indexes). */
const PG_RESTRICTION: RestrictionSql = {
  domain: (key, above, below, cutoff) =>
    cutoff === null
      ? {
          sql: `SELECT id FROM search_terms WHERE host_key = $1
                UNION ALL SELECT id FROM search_terms WHERE host_key > $2 AND host_key < $3`,
          params: [key, above, below],
        }
      : {
          // search_terms_host is (host_key, published_ms, id): an index-only scan either way.
          sql: `SELECT id FROM search_terms WHERE host_key = $1 AND published_ms >= $4
                UNION ALL SELECT id FROM search_terms WHERE host_key > $2 AND host_key < $3 AND published_ms >= $4`,
          params: [key, above, below, cutoff],
        },
  collections: (names) => ({
    sql: 'SELECT id FROM search_documents WHERE collection = ANY($1::text[])',
    params: [names],
  }),
  since: (cutoff) => ({ sql: 'SELECT id FROM search_terms WHERE published_ms >= $1', params: [cutoff] }),
};
