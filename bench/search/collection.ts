import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BenchDoc {
  id: string;
  title: string;
  content: string;
}
export interface BenchQuery {
  id: string;
  text: string;
}

const DATA = join(import.meta.dirname, 'data');
const jsonl = <T>(name: string): T[] =>
  readFileSync(join(DATA, name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

export function loadCollection(): { docs: BenchDoc[]; queries: BenchQuery[]; qrels: Map<string, Map<string, number>> } {
  const qrels = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(DATA, 'qrels.tsv'), 'utf8').split('\n')) {
    const [q, d, g] = line.split('\t');
    if (!q || !d) continue;
    if (!qrels.has(q)) qrels.set(q, new Map());
    qrels.get(q)!.set(d, Number(g ?? 1));
  }
  return { docs: jsonl<BenchDoc>('corpus.jsonl'), queries: jsonl<BenchQuery>('queries.jsonl'), qrels };
}

export const docUrl = (id: string, copy = 0) => `https://bench.local/${encodeURI(id)}${copy ? `?copy=${copy}` : ''}`;

/** nDCG@k with graded gains (2^g - 1) and recall@k for one query's ranked doc ids. */
export function score(ranked: string[], judged: Map<string, number>, k = 10): { ndcg: number; recall: number } {
  const gain = (g: number) => 2 ** g - 1;
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    dcg += gain(judged.get(id) ?? 0) / Math.log2(i + 2);
  });
  const ideal = [...judged.values()].sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((s, g, i) => s + gain(g) / Math.log2(i + 2), 0);
  const relevant = [...judged.values()].filter((g) => g > 0).length;
  const found = ranked.slice(0, k).filter((id) => (judged.get(id) ?? 0) > 0).length;
  return { ndcg: idcg > 0 ? dcg / idcg : 0, recall: relevant > 0 ? found / relevant : 0 };
}

/** Seeded PRNG (mulberry32): the synthetic corpora are the same on every run. */
export { prng as rng } from '../../src/test-models/prng.js';
