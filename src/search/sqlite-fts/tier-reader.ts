import type { Database, Statement } from 'better-sqlite3';
import { Accumulator } from '../ranking/accumulator.js';
import { stemTokens } from '../ranking/impacts.js';
import { passesFilter, type QueryFilter } from '../ranking/query-filter.js';
import { membership, RESTRICT_MAX, type RestrictionSql, restrictionReads } from '../ranking/restriction.js';
import type { Candidate, TierReader } from '../ranking/top-k.js';
import type { SqlitePostings } from './postings.js';

/** Reads the SQLite tiered index for ranking/top-k.ts. */
export class SqliteTiers {
  readonly #accumulator = new Accumulator();
  readonly #counts: Statement<[string], { token: string; postings: number }>;
  readonly #collections: Statement<[], { collection: string; documents: number }>;
  readonly #candidates: Statement<[string], CandidateRow>;

  constructor(
    private readonly db: Database,
    private readonly postings: SqlitePostings,
  ) {
    this.#counts = db.prepare(
      'SELECT token, postings FROM search_token_counts WHERE token IN (SELECT value FROM json_each(?))',
    );
    this.#collections = db.prepare('SELECT collection, documents FROM search_collections WHERE documents > 0');
    this.#candidates = db.prepare(
      `SELECT id, collection, host, published_ms, tokens FROM search_documents
       WHERE id IN (SELECT value FROM json_each(?))`,
    );
  }

  collections(): Map<string, number> {
    return new Map(this.#collections.all().map((r) => [r.collection, r.documents]));
  }

  /** Postings of every tiered token of the stems. */
  counts(stems: string[]): Map<string, number> {
    const rows = this.#counts.all(JSON.stringify(stems.flatMap(stemTokens)));
    return new Map(rows.map((r) => [r.token, r.postings]));
  }

  reader(filter: QueryFilter, collections: Map<string, number>): TierReader {
    const allowed = this.#restriction(filter, collections);
    const passes = (r: CandidateRow) =>
      passesFilter(filter, { collection: r.collection, host: r.host, publishedMs: r.published_ms });
    return {
      partialTop: async (segments, limit) => {
        // Synchronous from the first posting to top(): no other query can touch the accumulator.
        for (const s of segments) {
          for (const ids of this.postings.read(s.token)) this.#accumulator.add(ids, s.weight, allowed);
        }
        return this.#accumulator.top(limit);
      },
      candidates: async (ids) =>
        this.#candidates
          .all(JSON.stringify(ids))
          .map((r): Candidate => ({ id: r.id, tokens: r.tokens, passes: passes(r) })), // the text: scorer() finds the query's stems in it
    };
  }

  /**
   * The documents a selective filter passes, as a membership test; undefined when every filter is
   * broad. Each filter's ids come from an index alone (the rowid is in every index entry, so no
   * table row is read), at most RESTRICT_MAX + 1 of them; the first that fits is used, the
   * others are checked on the candidates.
   */
  #restriction(filter: QueryFilter, collections: Map<string, number>): ((id: number) => boolean) | undefined {
    for (const { sql, params } of restrictionReads(filter, collections, SQLITE_RESTRICTION)) {
      const ids = this.db
        .prepare<unknown[], number>(`${sql} LIMIT ${RESTRICT_MAX + 1}`)
        .pluck()
        .all(...params);
      if (ids.length <= RESTRICT_MAX) return membership(ids);
    }
    return undefined;
  }
}

interface CandidateRow {
  id: number;
  collection: string;
  host: string;
  published_ms: number | null;
  tokens: string;
}

/** The filters' id reads on SQLite (the rowid is in every index entry: no table row is read). */
const SQLITE_RESTRICTION: RestrictionSql = {
  domain: (key, above, below) => ({
    sql: `SELECT id FROM search_documents WHERE host_key = ?
          UNION ALL SELECT id FROM search_documents WHERE host_key > ? AND host_key < ?`,
    params: [key, above, below],
  }),
  collections: (names) => ({
    sql: 'SELECT id FROM search_documents WHERE collection IN (SELECT value FROM json_each(?))',
    params: [JSON.stringify(names)],
  }),
  since: (cutoff) => ({ sql: 'SELECT id FROM search_documents WHERE published_ms >= ?', params: [cutoff] }),
};
