/**
 * Search benchmark: ranking quality on the judged man-page collection (data/README.md), then
 * indexing speed and query latency at 100k documents, for the SQLite FTS5 index and, in the same
 * run over the same data, MiniSearch as the baseline. `npx tsx bench/search/run.ts` prints the table.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import type { BenchRow } from '../types.js';
import { type BenchDoc, type BenchQuery, docUrl, loadCollection, score, synthesise } from './collection.js';

export type { BenchRow };

const SCALE = 100_000;
const BATCH = 1000;
/** Queries run at 100k docs (MiniSearch takes ~0.7 s a query there; the whole set would take minutes). */
const SCALE_QUERIES = 200;

interface Engine {
  add(items: { url: string; doc: BenchDoc }[]): Promise<void>;
  search(text: string): Promise<string[]>; // urls, best first, at most 10
  close(): Promise<void>;
}

function sqliteEngine(): Engine {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  const index = new SqliteFtsIndex(join(dir, 'index.db'));
  return {
    async add(items) {
      for (let i = 0; i < items.length; i += BATCH) {
        await index.upsert(
          items.slice(i, i + BATCH).map(({ url, doc }) => ({ url, title: doc.title, content: doc.content })),
        );
      }
    },
    search: async (text) => (await index.query({ text, count: 10 })).map((h) => h.url),
    async close() {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function miniSearchEngine(): Engine {
  // Same fields and the same title weight as ours; MiniSearch's own BM25+ and tokenizer, no stemming.
  const ms = new MiniSearch<{ id: string; title: string; content: string }>({ fields: ['title', 'content'] });
  return {
    async add(items) {
      ms.addAll(items.map(({ url, doc }) => ({ id: url, title: doc.title, content: doc.content })));
    },
    search: async (text) =>
      ms
        .search(text, { boost: { title: 2 } })
        .slice(0, 10)
        .map((r) => String(r.id)),
    close: async () => undefined,
  };
}

/** Judged page id of a result url; synthetic copies (`?copy=N`) are never relevant. */
const judgedId = (url: string) => {
  const u = new URL(url);
  return decodeURI(u.pathname.slice(1)) + (u.searchParams.has('copy') ? `#${u.searchParams.get('copy')}` : '');
};

/** nDCG@10, recall@10 and per-query latency over the queries, in one pass. */
async function evaluate(engine: Engine, queries: BenchQuery[], qrels: Map<string, Map<string, number>>) {
  for (const q of queries.slice(0, 10)) await engine.search(q.text); // warm caches
  let ndcg = 0;
  let recall = 0;
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    const urls = await engine.search(q.text);
    times.push(performance.now() - t);
    const s = score(urls.map(judgedId), qrels.get(q.id) ?? new Map());
    ndcg += s.ndcg;
    recall += s.recall;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!;
  return { ndcg: ndcg / queries.length, recall: recall / queries.length, p50: at(0.5), p99: at(0.99) };
}

async function measure(make: () => Engine) {
  const { docs, queries, qrels } = loadCollection();
  const small = make();
  await small.add(docs.map((doc) => ({ url: docUrl(doc.id), doc })));
  const q = await evaluate(small, queries, qrels);
  await small.close();
  const big = make();
  const items = synthesise(docs, SCALE);
  const t = performance.now();
  await big.add(items);
  const docsPerSecond = items.length / ((performance.now() - t) / 1000);
  const atScale = await evaluate(big, queries.slice(0, SCALE_QUERIES), qrels);
  await big.close();
  return { ndcg: q.ndcg, recall: q.recall, atScale, docsPerSecond, docs: docs.length, queries: queries.length };
}

const row = (name: string, value: number, unit: string, baseline: number): BenchRow => ({
  name,
  value,
  unit,
  baseline,
  ratio: baseline === 0 ? Number.NaN : value / baseline,
});

export async function run(): Promise<BenchRow[]> {
  const ours = await measure(sqliteEngine);
  const base = await measure(miniSearchEngine);
  const judged = `man-page known-item, ${ours.docs} docs, ${ours.queries} queries`;
  return [
    row(`search nDCG@10 (${judged})`, ours.ndcg, '', base.ndcg),
    row(`search recall@10 (${judged})`, ours.recall, '', base.recall),
    row(
      `search nDCG@10 among ${SCALE / 1000}k docs (synthetic distractors, ${SCALE_QUERIES} queries)`,
      ours.atScale.ndcg,
      '',
      base.atScale.ndcg,
    ),
    row(`search indexing at ${SCALE / 1000}k docs`, ours.docsPerSecond, 'docs/s', base.docsPerSecond),
    row(
      `search query latency p50 at ${SCALE / 1000}k docs (lower is better)`,
      ours.atScale.p50,
      'ms',
      base.atScale.p50,
    ),
    row(
      `search query latency p99 at ${SCALE / 1000}k docs (lower is better)`,
      ours.atScale.p99,
      'ms',
      base.atScale.p99,
    ),
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const rows = await run();
  const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(3));
  console.log(['measure', 'value', 'unit', 'MiniSearch', 'ratio'].join('\t'));
  for (const r of rows) console.log([r.name, fmt(r.value), r.unit, fmt(r.baseline), r.ratio.toFixed(2)].join('\t'));
}
