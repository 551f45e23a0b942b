import type { Database, Statement } from 'better-sqlite3';
import { Accumulator } from '../ranking/accumulator.js';
import { stemTokens } from '../ranking/impacts.js';
import { passesFilter, type QueryFilter } from '../ranking/query-filter.js';
import type { Candidate, TierReader } from '../ranking/top-k.js';
import { hostInDomain, hostKey } from '../text/filters.js';

/**
 * A filter that passes at most this many documents is applied while scores are added up (only its
 * documents are scored); a broader one is checked on the candidates, most of which pass it anyway.
 */
const RESTRICT_MAX = 20_000;

/** Reads the SQLite tiered index for ranking/top-k.ts. */
export class SqliteTiers {
  readonly #accumulator = new Accumulator();
  readonly #postings: Statement<[string], number>;
  readonly #counts: Statement<[string], { token: string; postings: number }>;
  readonly #collections: Statement<[], { collection: string; documents: number }>;
  readonly #candidates: Statement<[string], CandidateRow>;

  constructor(private readonly db: Database) {
    this.#postings = db.prepare<[string], number>('SELECT rowid FROM search_tiers WHERE search_tiers MATCH ?').pluck();
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
        for (const s of segments) this.#accumulator.add(this.#postings.all(`"${s.token}"`), s.weight, allowed);
        return this.#accumulator.top(limit);
      },
      candidates: async (ids) =>
        this.#candidates
          .all(JSON.stringify(ids))
          .map((r): Candidate => ({ id: r.id, tokens: r.tokens.split(' '), passes: passes(r) })),
    };
  }

  /** The documents a selective filter passes, as a membership test; undefined when it is broad. */
  #restriction(filter: QueryFilter, collections: Map<string, number>): ((id: number) => boolean) | undefined {
    const sets: { sql: string; params: unknown[]; check?: (r: { host: string }) => boolean }[] = [];
    const wanted = filter.collections.reduce((sum, c) => sum + (collections.get(c) ?? 0), 0);
    const total = [...collections.values()].reduce((a, b) => a + b, 0);
    if (wanted < total && wanted <= RESTRICT_MAX) {
      sets.push({
        sql: 'SELECT id FROM search_documents WHERE collection IN (SELECT value FROM json_each(?))',
        params: [JSON.stringify(filter.collections)],
      });
    }
    if (filter.domain !== null) {
      const key = hostKey(filter.domain);
      const domain = filter.domain;
      sets.push({
        sql: 'SELECT id, host FROM search_documents WHERE host_key >= ? AND host_key < ?',
        params: [key, `${key}/`],
        check: (r) => hostInDomain(r.host, domain),
      });
    }
    if (filter.cutoff !== null) {
      sets.push({ sql: 'SELECT id FROM search_documents WHERE published_ms >= ?', params: [filter.cutoff] });
    }
    // Counted first (an index walk, stopped past the limit); only the smallest is read.
    let best: { set: (typeof sets)[number]; size: number } | undefined;
    for (const set of sets) {
      const size = this.db
        .prepare(`SELECT count(*) FROM (${set.sql} LIMIT ${RESTRICT_MAX + 1})`)
        .pluck()
        .get(...set.params) as number;
      if (size <= RESTRICT_MAX && (!best || size < best.size)) best = { set, size };
    }
    if (best) {
      const { sql, params, check } = best.set;
      const members = new Set<number>();
      for (const r of this.db.prepare(sql).all(...params) as { id: number; host: string }[]) {
        if (!check || check(r)) members.add(r.id);
      }
      return (id) => members.has(id);
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
