/**
 * Ranking quality on the judged man-page collection alone and with 63,666 short off-topic
 * documents added (data/distractors.tsv: Debian package names and one-line descriptions), shuffled
 * in among the pages: the tiered index on both backends against today's version 1 ranking.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresFtsIndex } from '../../src/search/postgres-fts/index.js';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import type { SearchDocument } from '../../src/search/types.js';
import { BaselineFts5 } from './baseline-fts5.js';
import { docUrl, loadCollection, rng, score } from './collection.js';
import { pgPool, pgSchema } from './scale-indexes.js';

export interface Quality {
  topical: number;
  mixed: number;
}

interface Ranker {
  add(docs: SearchDocument[]): Promise<void>;
  urls(text: string): Promise<string[]>;
  close(): Promise<void>;
}

export function distractors(): SearchDocument[] {
  const file = join(import.meta.dirname, 'data', 'distractors.tsv');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const [name, description] = line.split('\t') as [string, string];
      return { url: `https://packages.example/${encodeURIComponent(name)}`, title: name, content: description ?? '' };
    });
}

/** The documents in a fixed shuffled order, so that no ranker sees all topical pages first. */
function shuffled(docs: SearchDocument[]): SearchDocument[] {
  const random = rng(7);
  const out = [...docs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const judgedId = (url: string) => decodeURI(new URL(url).pathname.slice(1));

async function ndcg(make: () => Promise<Ranker>, mixed: boolean): Promise<number> {
  const { docs, queries, qrels } = loadCollection();
  const ranker = await make();
  const all: SearchDocument[] = docs.map((d) => ({ url: docUrl(d.id), title: d.title, content: d.content }));
  const corpus = mixed ? shuffled([...all, ...distractors()]) : all;
  for (let i = 0; i < corpus.length; i += 2000) await ranker.add(corpus.slice(i, i + 2000));
  let sum = 0;
  for (const q of queries) sum += score((await ranker.urls(q.text)).map(judgedId), qrels.get(q.id)!).ndcg;
  await ranker.close();
  return sum / queries.length;
}

const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  return { file: join(dir, 'index.db'), remove: () => rmSync(dir, { recursive: true, force: true }) };
};

const makers: Record<'sqlite' | 'postgres' | 'today', () => Promise<Ranker>> = {
  async sqlite() {
    const { file, remove } = tempFile();
    const index = new SqliteFtsIndex(file);
    return {
      add: (docs) => index.upsert(docs),
      urls: async (text) => (await index.query({ text, count: 10 })).map((h) => h.url),
      close: async () => {
        await index.close();
        remove();
      },
    };
  },
  async postgres() {
    const pool = await pgPool(0);
    // pgPool made the schema; it starts empty so that no earlier run's distractors are in it.
    const schema = pgSchema(0);
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    const index = await PostgresFtsIndex.create(pool);
    return {
      add: (docs) => index.upsert(docs),
      urls: async (text) => (await index.query({ text, count: 10 })).map((h) => h.url),
      close: async () => {
        await pool.query(`DROP SCHEMA ${schema} CASCADE`);
        await pool.end();
      },
    };
  },
  async today() {
    const { file, remove } = tempFile();
    const index = new BaselineFts5(file);
    return {
      add: async (docs) => index.upsert(docs),
      urls: async (text) => index.query({ text, count: 10 }),
      close: async () => {
        index.close();
        remove();
      },
    };
  },
};

export async function measureQuality(backend: keyof typeof makers): Promise<Quality> {
  return { topical: await ndcg(makers[backend], false), mixed: await ndcg(makers[backend], true) };
}
