import type { Pool } from 'pg';
import { stemTokens } from '../ranking/impacts.js';
import { passesFilter, type QueryFilter } from '../ranking/query-filter.js';
import type { Candidate, TierReader } from '../ranking/top-k.js';
import { hostKey } from '../text/filters.js';

/** A token as a tsquery of that one lexeme, quoted so that nothing in it reads as an operator. */
export const lexemeQuery = (token: string) => `'${token.replace(/['\\]/g, '\\$&')}'`;

// The filters as every statement below applies them: $1 collections, $2 domain, $3 its host key,
// $4 the recency cut-off. The host key range lets PostgreSQL use its index for a small domain.
const FILTERS = `t.collection = ANY($1::text[])
  AND ($2::text IS NULL OR (t.host_key >= $3 AND t.host_key < $3 || '/'
       AND (t.host = $2 OR right(t.host, length($2) + 1) = '.' || $2)))
  AND ($4::bigint IS NULL OR t.published_ms >= $4)`;

// Every segment's documents that pass the filters, summed per document in the database: only the
// best `limit` cross the wire.
const PARTIAL_TOP = `
  SELECT t.id, sum(s.w)::float8 AS score
  FROM unnest($5::text[], $6::float8[]) AS s(q, w)
  JOIN LATERAL (SELECT t.id FROM search_terms t WHERE t.tiers @@ s.q::tsquery AND ${FILTERS}) t ON true
  GROUP BY t.id ORDER BY score DESC, t.id LIMIT $7`;

// A candidate's tokens of the query's stems only (the first character of a token is its level).
const CANDIDATES = `
  SELECT t.id, t.collection, t.host, t.published_ms,
         ARRAY(SELECT x FROM unnest(tsvector_to_array(t.tiers)) x WHERE substr(x, 2) = ANY($2::text[])) AS tokens
  FROM search_terms t WHERE t.id = ANY($1::bigint[])`;

interface CandidateRow {
  id: string;
  collection: string;
  host: string;
  published_ms: string | null;
  tokens: string[];
}

/** Reads the PostgreSQL tiered index for ranking/top-k.ts. */
export class PostgresTiers {
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

  reader(filter: QueryFilter, stems: string[]): TierReader {
    const filters = [filter.collections, filter.domain, filter.domain && hostKey(filter.domain), filter.cutoff];
    const passes = (r: CandidateRow) =>
      passesFilter(filter, {
        collection: r.collection,
        host: r.host,
        publishedMs: r.published_ms === null ? null : Number(r.published_ms),
      });
    return {
      partialTop: async (segments, limit) => {
        const res = await this.pool.query<{ id: string; score: number }>(PARTIAL_TOP, [
          ...filters,
          segments.map((s) => lexemeQuery(s.token)),
          segments.map((s) => s.weight),
          limit,
        ]);
        return res.rows.map((r) => ({ id: Number(r.id), score: r.score }));
      },
      candidates: async (ids) => {
        const res = await this.pool.query<CandidateRow>(CANDIDATES, [ids, stems]);
        return res.rows.map((r): Candidate => ({ id: Number(r.id), tokens: r.tokens, passes: passes(r) }));
      },
    };
  }
}
