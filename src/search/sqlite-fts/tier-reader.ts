import type { Database, Statement } from 'better-sqlite3';
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
import type { SqlitePostings } from './postings.js';

/** Reads the SQLite tiered index for ranking/top-k.ts. */
export class SqliteTiers {
  readonly #accumulator = new Accumulator();
  readonly #broad = new BroadFilters();
  readonly #counts: Statement<[string], { token: string; postings: number }>;
  readonly #collections: Statement<[], { collection: string; documents: number }>;
  readonly #candidates: Statement<[string], CandidateRow>;
  readonly #filterColumns: Statement<[string], FilterRow>;
  readonly #tokens: Statement<[string], { id: number; tokens: string }>;

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
    this.#filterColumns = db.prepare(
      `SELECT id, collection, host, published_ms FROM search_documents INDEXED BY search_documents_filters
       WHERE id IN (SELECT value FROM json_each(?))`,
    );
    this.#tokens = db.prepare('SELECT id, tokens FROM search_documents WHERE id IN (SELECT value FROM json_each(?))');
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
    const restriction = this.#restriction(filter, collections);
    const allowed = restriction?.allowed;
    const passes = (r: FilterRow) =>
      passesFilter(filter, { collection: r.collection, host: r.host, publishedMs: r.published_ms });
    const checkFirst = excludesMany(restriction ? leftAfter(filter, restriction.by, collections) : filter, collections);
    return {
      partialTop: async (segments, limit) => {
        // Synchronous from the first posting to top(): no other query can touch the accumulator.
        for (const s of segments) {
          for (const ids of this.postings.read(s.token)) this.#accumulator.add(ids, s.weight, allowed);
        }
        return this.#accumulator.top(limit);
      },
      fewDocuments: async (max) => (restriction && restriction.ids.length <= max ? restriction.ids : undefined),
      candidates: async (ids) => {
        // The text: scorer() finds the query's stems in it.
        if (!checkFirst) {
          return this.#candidates
            .all(JSON.stringify(ids))
            .map((r): Candidate => ({ id: r.id, tokens: r.tokens, passes: passes(r) }));
        }
        const kept = this.#filterColumns
          .all(JSON.stringify(ids))
          .filter(passes)
          .map((r) => r.id);
        return checkedCandidates(ids, kept, (some) => this.#tokens.all(JSON.stringify(some)));
      },
    };
  }

  /**
   * The documents a selective filter passes, as a membership test; undefined when every filter is
   * broad. Each filter's ids come from an index alone (the rowid is in every index entry, so no
   * table row is read), at most RESTRICT_MAX + 1 of them (none for a filter lately found broader:
   * BroadFilters); the first that fits is used, the others are checked on the candidates (on their
   * filter columns first: leftAfter, excludesMany).
   */
  #restriction(filter: QueryFilter, collections: Map<string, number>): Restriction | undefined {
    const now = Date.now();
    for (const { sql, params, by, key } of restrictionReads(filter, collections, SQLITE_RESTRICTION)) {
      if (this.#broad.has(key, now)) continue;
      const ids = this.db
        .prepare<unknown[], number>(`${sql} LIMIT ${RESTRICT_MAX + 1}`)
        .pluck()
        .all(...params);
      if (ids.length <= RESTRICT_MAX) return { ids, allowed: membership(ids), by };
      this.#broad.add(key, now);
    }
    return undefined;
  }
}

interface FilterRow {
  id: number;
  collection: string;
  host: string;
  published_ms: number | null;
}

interface CandidateRow extends FilterRow {
  tokens: string;
}

/** The filters' id reads on SQLite (the rowid is in every index entry: no table row is read). */
const SQLITE_RESTRICTION: RestrictionSql = {
  domain: (key, above, below, cutoff) =>
    cutoff === null
      ? {
          sql: `SELECT id FROM search_documents WHERE host_key = ?
                UNION ALL SELECT id FROM search_documents WHERE host_key > ? AND host_key < ?`,
          params: [key, above, below],
        }
      : {
          // search_documents_host is (host_key, published_ms): the date is read from the index too.
          sql: `SELECT id FROM search_documents WHERE host_key = ? AND published_ms >= ?
                UNION ALL SELECT id FROM search_documents WHERE host_key > ? AND host_key < ? AND published_ms >= ?`,
          params: [key, cutoff, above, below, cutoff],
        },
  collections: (names) => ({
    sql: 'SELECT id FROM search_documents WHERE collection IN (SELECT value FROM json_each(?))',
    params: [JSON.stringify(names)],
  }),
  since: (cutoff) => ({ sql: 'SELECT id FROM search_documents WHERE published_ms >= ?', params: [cutoff] }),
};
