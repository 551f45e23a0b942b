import type { Pool } from 'pg';
import { Accumulator } from '../ranking/accumulator.js';
import { stemTokens } from '../ranking/impacts.js';
import { passesFilter, type QueryFilter } from '../ranking/query-filter.js';
import { membership, RESTRICT_MAX, type RestrictionSql, restrictionReads } from '../ranking/restriction.js';
import type { Candidate, TierReader } from '../ranking/top-k.js';
import { readBlocks } from './postings.js';

// A candidate's tokens as the tsvector's text ('atoken' 'btoken' ...), matched here (top-k.ts,
// scorer): picking the query's stems out in SQL (unnest and compare every token of every row) cost
// 3-4x as much as sending the whole text, 18-30 against 6-7 ms for 400 rows at 100k documents.
const CANDIDATES = `
  SELECT t.id, t.collection, t.host, t.published_ms, t.tiers::text AS tokens
  FROM search_terms t WHERE t.id = ANY($1::bigint[])`;

interface CandidateRow {
  id: string;
  collection: string;
  host: string;
  published_ms: string | null;
  tokens: string;
}

/** Reads the PostgreSQL tiered index for ranking/top-k.ts. */
export class PostgresTiers {
  readonly #accumulator = new Accumulator();

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
    const passes = (r: CandidateRow) =>
      passesFilter(filter, {
        collection: r.collection,
        host: r.host,
        publishedMs: r.published_ms === null ? null : Number(r.published_ms),
      });
    let allowed: Promise<((id: number) => boolean) | undefined> | undefined;
    return {
      partialTop: async (segments, limit) => {
        allowed ??= this.#restriction(filter, collections);
        const [only, blocks] = await Promise.all([
          allowed,
          readBlocks(
            this.pool,
            segments.map((s) => s.token),
          ),
        ]);
        const weights = new Map(segments.map((s) => [s.token, s.weight]));
        // Synchronous from the first posting to top(): no other query can touch the accumulator.
        for (const b of blocks) this.#accumulator.add(b.ids, weights.get(b.token)!, only);
        return this.#accumulator.top(limit);
      },
      candidates: async (ids) => {
        const res = await this.pool.query<CandidateRow>(CANDIDATES, [ids]);
        // Stems hold no quotes (text/analyze.ts), so dropping them leaves the tokens between spaces.
        return res.rows.map(
          (r): Candidate => ({ id: Number(r.id), tokens: r.tokens.replaceAll("'", ''), passes: passes(r) }),
        );
      },
    };
  }

  /**
   * The documents a selective filter passes, as a membership test; undefined when every filter is
   * broad. Each filter's ids come from an index that carries them (an index-only scan once the
   * table is vacuumed), at most RESTRICT_MAX + 1 of them; the first that fits is used, the others
   * are checked on the candidates.
   */
  async #restriction(
    filter: QueryFilter,
    collections: Map<string, number>,
  ): Promise<((id: number) => boolean) | undefined> {
    for (const { sql, params } of restrictionReads(filter, collections, PG_RESTRICTION)) {
      const res = await this.pool.query<{ id: string }>(`${sql} LIMIT ${RESTRICT_MAX + 1}`, params);
      if (res.rows.length <= RESTRICT_MAX) return membership(res.rows.map((r) => Number(r.id)));
    }
    return undefined;
  }
}

/** The filters' id reads on PostgreSQL (host and date on the narrow terms table, with their indexes). */
const PG_RESTRICTION: RestrictionSql = {
  domain: (key, above, below) => ({
    sql: `SELECT id FROM search_terms WHERE host_key = $1
          UNION ALL SELECT id FROM search_terms WHERE host_key > $2 AND host_key < $3`,
    params: [key, above, below],
  }),
  collections: (names) => ({
    sql: 'SELECT id FROM search_documents WHERE collection = ANY($1::text[])',
    params: [names],
  }),
  since: (cutoff) => ({ sql: 'SELECT id FROM search_terms WHERE published_ms >= $1', params: [cutoff] }),
};
