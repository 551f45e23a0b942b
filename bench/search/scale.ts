/**
 * Latency at 10k, 100k and 1M documents (scale-corpus.ts), filters off and on, on the tiered
 * index (SQLite and PostgreSQL) and on today's version 1 index (SQLite, unfiltered only: at 1M it
 * takes about a second a query).
 */
import { PostgresFtsIndex } from '../../src/search/postgres-fts/index.js';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import type { Recency, SearchHit, SearchQuery } from '../../src/search/types.js';
import { BaselineFts5 } from './baseline-fts5.js';
import { type BenchQuery, loadCollection, rng } from './collection.js';
import { NOW } from './scale-corpus.js';
import { type BuildNote, ensureIndex, pgPool, scaleCorpus, sqliteFile } from './scale-indexes.js';

export const FILTERS = ['none', 'count 50', 'domain', 'recency', 'all three'] as const;
export type FilterName = (typeof FILTERS)[number];

export interface Latency {
  p50: number;
  p99: number;
  /** Share of answers the score bound proved exact (1 when every segment was read). */
  exact: number;
  postings: number;
}

export interface ScaleResult {
  size: number;
  backend: 'sqlite' | 'postgres' | 'today';
  build: BuildNote;
  latency: Partial<Record<FilterName, Latency>>;
}

const RECENCIES: Recency[] = ['oneWeek', 'oneMonth', 'oneYear'];

/** The i-th query with a filter: domains drawn as pages are (Zipf), recency windows in turn. */
export function withFilter(q: BenchQuery, i: number, filter: FilterName): SearchQuery {
  const random = rng(1000 + i);
  const domain = `site${scaleCorpus().hostRank(random())}.example`; // docs.siteK.example is under it
  const base: SearchQuery = { text: q.text, count: 10, now: NOW };
  if (filter === 'count 50') return { ...base, count: 50 };
  if (filter === 'domain') return { ...base, domain };
  if (filter === 'recency') return { ...base, recency: RECENCIES[i % 3]! };
  if (filter === 'all three') return { ...base, count: 20, domain, recency: 'oneYear' };
  return base;
}

type Run = (q: SearchQuery) => Promise<{ exact: boolean; postings: number } | undefined>;

/**
 * Latency of a server in its steady state: the queries are run once untimed, then timed. The
 * first pass over a million documents reads much of the index from disk or from the OS cache into
 * the database's own (on SQLite its first column ran 3-5x slower than the same queries a minute
 * later), which a server pays once after it starts, not on every query.
 */
async function time(run: Run, queries: BenchQuery[], filter: FilterName): Promise<Latency> {
  for (let i = 0; i < queries.length; i++) await run(withFilter(queries[i]!, i, filter));
  const times: number[] = [];
  let exact = 0;
  let postings = 0;
  for (let i = 0; i < queries.length; i++) {
    const started = performance.now();
    const stats = await run(withFilter(queries[i]!, i, filter));
    times.push(performance.now() - started);
    exact += stats === undefined || stats.exact ? 1 : 0;
    postings += stats?.postings ?? 0;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), exact: exact / queries.length, postings: postings / queries.length };
}

export async function measureScale(
  size: number,
  queryCount: number,
  backends: readonly string[] = ['sqlite', 'postgres'],
): Promise<ScaleResult[]> {
  const queries = loadCollection().queries.slice(0, queryCount);
  const results: ScaleResult[] = [];
  const ours = async (backend: 'sqlite' | 'postgres', run: Run, build: BuildNote) => {
    const latency: ScaleResult['latency'] = {};
    for (const filter of FILTERS) latency[filter] = await time(run, queries, filter);
    results.push({ size, backend, build, latency });
  };
  const stats = (r: { exact: boolean; postings: number; hits: SearchHit[] }) => r;

  if (backends.includes('sqlite')) {
    const build = await ensureIndex('sqlite', size);
    const sqlite = new SqliteFtsIndex(sqliteFile('sqlite', size));
    await ours('sqlite', async (q) => stats(await sqlite.queryWithStats(q)), build);
    await sqlite.close();
  }
  if (backends.includes('postgres')) {
    const build = await ensureIndex('postgres', size);
    const pool = await pgPool(size);
    const postgres = await PostgresFtsIndex.create(pool);
    await ours('postgres', async (q) => stats(await postgres.queryWithStats(q)), build);
    await pool.end();
  }

  const todayBuild = await ensureIndex('today', size);
  const today = new BaselineFts5(sqliteFile('today', size));
  const few = queries.slice(0, Math.max(20, Math.round(queryCount / (size >= 1_000_000 ? 4 : 1))));
  const baseline: Run = async (q) => {
    today.query(q);
    return undefined;
  };
  const latency = { none: await time(baseline, few, 'none') };
  today.close();
  results.push({ size, backend: 'today', build: todayBuild, latency });
  return results;
}
