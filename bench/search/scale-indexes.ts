/**
 * The scale benchmark's indexes, built once into a cache outside the repository
 * (`BENCH_SEARCH_CACHE`, default ~/.cache/gen-platform-bench/search): SQLite files of the tiered
 * index and of today's (version 1) index, and PostgreSQL schemas `bench_search_v<version>_<size>` in a
 * database of the benchmark's own (`BENCH_SEARCH_DATABASE_URL`, default
 * postgres://postgres@127.0.0.1:5432/gen_platform_bench_search, created when missing), each with a
 * note of what building it took. A build that stops goes on at the next run (documents are
 * upserted by url). The schemas are a cache too, kept between runs (a 1M build takes a while);
 * BENCH_SEARCH_PG_DROP=1 drops them after the run.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresFtsIndex } from '../../src/search/postgres-fts/index.js';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import type { SearchDocument } from '../../src/search/types.js';
import { BaselineFts5 } from './baseline-fts5.js';
import { loadCollection } from './collection.js';
import { ScaleCorpus } from './scale-corpus.js';

/**
 * Bump a backend's version when the corpus or that index's format changes: its older cache
 * entries are then rebuilt. 2: posting blocks (schema 3) instead of FTS5 (SQLite) and GIN (PostgreSQL).
 */
const CACHE_VERSION: Record<Backend, number> = { sqlite: 2, postgres: 2, today: 1 };
// Documents per upsert: a batch rewrites the last posting block of each token it holds once, so
// larger batches write fewer blocks per document.
const BATCH = 10_000;
export const CACHE = process.env['BENCH_SEARCH_CACHE'] ?? join(homedir(), '.cache', 'gen-platform-bench', 'search');
// Not DATABASE_URL: that names the tests' shared database, and this cache is large and long-lived.
export const DATABASE_URL =
  process.env['BENCH_SEARCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/gen_platform_bench_search';

export interface BuildNote {
  documents: number;
  /** Documents added by the build that wrote the note, in `seconds` (a resumed build adds fewer). */
  built: number;
  seconds: number;
  bytes: number;
}

export type Backend = 'sqlite' | 'postgres' | 'today';

let corpus: ScaleCorpus | undefined;
const scaleCorpus = () => (corpus ??= new ScaleCorpus(loadCollection().docs));

const noteFile = (backend: Backend, size: number) => join(CACHE, `v${CACHE_VERSION[backend]}-${backend}-${size}.json`);

function readNote(backend: Backend, size: number): BuildNote | undefined {
  const file = noteFile(backend, size);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as BuildNote) : undefined;
}

/** Adds documents [from, size) in batches; returns the seconds it took. */
async function fill(add: (docs: SearchDocument[]) => Promise<void> | void, from: number, size: number) {
  const started = performance.now();
  for (let i = from; i < size; i += BATCH) {
    await add([...scaleCorpus().range(i, Math.min(size, i + BATCH))]);
    if ((i / BATCH) % 50 === 0)
      process.stderr.write(`  ${i.toLocaleString('en-US')} / ${size.toLocaleString('en-US')}\n`);
  }
  return (performance.now() - started) / 1000;
}

const fileBytes = (file: string) =>
  ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(file + suffix) ? statSync(file + suffix).size : 0), 0);

export const sqliteFile = (backend: 'sqlite' | 'today', size: number) =>
  join(CACHE, `v${CACHE_VERSION[backend]}-${backend}-${size}.db`);
export const pgSchema = (size: number) => `bench_search_v${CACHE_VERSION.postgres}_${size}`;

/** Creates the benchmark's database when it is missing (connecting to the server's `postgres` database). */
async function ensureDatabase(): Promise<void> {
  const url = new URL(DATABASE_URL);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await admin.end();
  }
}

export async function pgPool(size: number): Promise<pg.Pool> {
  await ensureDatabase();
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${pgSchema(size)}`);
  await admin.end();
  return new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${pgSchema(size)}`, max: 2 });
}

/** Builds (or finds) one index of `size` documents and says what it took. */
export async function ensureIndex(backend: Backend, size: number): Promise<BuildNote> {
  mkdirSync(CACHE, { recursive: true });
  const known = readNote(backend, size);
  if (known && (backend !== 'postgres' || (await pgCount(size)) === size)) return known;
  process.stderr.write(`bench search: building the ${backend} index of ${size.toLocaleString('en-US')} documents\n`);
  let seconds: number;
  let bytes: number;
  let have = 0;
  if (backend === 'postgres') {
    const pool = await pgPool(size);
    const index = await PostgresFtsIndex.create(pool);
    have = (await index.stats()).reduce((s, c) => s + c.documents, 0);
    seconds = await fill((docs) => index.upsert(docs), have, size);
    await pool.query('VACUUM ANALYZE search_terms');
    await pool.query('VACUUM ANALYZE search_documents');
    await pool.query('VACUUM ANALYZE search_postings');
    const res = await pool.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(c.oid))::bigint AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [pgSchema(size)],
    );
    bytes = Number(res.rows[0]!.bytes);
    await pool.end();
  } else if (backend === 'sqlite') {
    const file = sqliteFile(backend, size);
    const index = new SqliteFtsIndex(file);
    have = (await index.stats()).reduce((s, c) => s + c.documents, 0);
    seconds = await fill((docs) => index.upsert(docs), have, size);
    await index.close();
    bytes = fileBytes(file);
  } else {
    const file = sqliteFile(backend, size);
    rmSync(file, { force: true });
    const index = new BaselineFts5(file);
    seconds = await fill((docs) => index.upsert(docs), 0, size);
    index.close();
    bytes = fileBytes(file);
  }
  const note = { documents: size, built: size - have, seconds, bytes };
  writeFileSync(noteFile(backend, size), JSON.stringify(note));
  return note;
}

async function pgCount(size: number): Promise<number> {
  const pool = await pgPool(size);
  try {
    const res = await pool.query<{ n: string }>('SELECT coalesce(sum(documents), 0) AS n FROM search_collections');
    return Number(res.rows[0]!.n);
  } catch {
    return 0;
  } finally {
    await pool.end();
  }
}

export async function dropPgSchemas(sizes: number[]): Promise<void> {
  if (process.env['BENCH_SEARCH_PG_DROP'] !== '1') return;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  for (const size of sizes) {
    await admin.query(`DROP SCHEMA IF EXISTS ${pgSchema(size)} CASCADE`);
    rmSync(noteFile('postgres', size), { force: true });
  }
  await admin.end();
}

export { scaleCorpus };
