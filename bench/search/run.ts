/**
 * `npm run bench -- search`: ranking quality with and without 63,666 short off-topic documents
 * (quality.ts) and latency, build rate and size at 10k, 100k and 1M documents (scale.ts), on the
 * tiered index (SQLite and PostgreSQL) against today's version 1 ranking measured in the same run.
 * Sizes: BENCH_SEARCH_SIZES (default 10000,100000,1000000); queries per figure:
 * BENCH_SEARCH_QUERIES (default 200); backends: BENCH_SEARCH_BACKENDS (default sqlite,postgres). The indexes are cached (scale-indexes.ts); the markdown table
 * of docs/benchmarks.md is written to .bench-out/search.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchRow, benchRow } from '../types.js';
import { measureQuality, type Quality } from './quality.js';
import { FILTERS, measureScale, type ScaleResult } from './scale.js';
import { dropPgSchemas } from './scale-indexes.js';

export type { BenchRow };

const kilo = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1000}k`);

function qualityRows(name: string, ours: Quality, today: Quality): BenchRow[] {
  return [
    benchRow(`search nDCG@10 ${name}, man pages alone (baseline: today's ranking)`, ours.topical, '', today.topical, 4),
    benchRow(`search nDCG@10 ${name}, with 63,666 short distractors`, ours.mixed, '', today.mixed, 4),
    benchRow(
      `search nDCG@10 ${name}, fall with the distractors (target ≤ 0.02)`,
      ours.topical - ours.mixed,
      '',
      today.topical - today.mixed,
      4,
    ),
  ];
}

function scaleRows(results: ScaleResult[]): BenchRow[] {
  const today = results.find((r) => r.backend === 'today')!;
  const rows: BenchRow[] = [];
  for (const r of results.filter((x) => x.backend !== 'today')) {
    const at = `${r.backend} ${kilo(r.size)}`;
    for (const filter of FILTERS) {
      const l = r.latency[filter]!;
      const base = today.latency.none!;
      rows.push(benchRow(`search ${at} p50, ${filter} (baseline: today, no filter)`, l.p50, 'ms', base.p50, 2));
      rows.push(benchRow(`search ${at} p99, ${filter}`, l.p99, 'ms', base.p99, 2));
    }
    const rate = (x: ScaleResult) => x.build.built / x.build.seconds;
    rows.push(benchRow(`search ${at} build rate (baseline: today)`, rate(r), 'docs/s', rate(today), 0));
    const perDoc = (x: ScaleResult) => x.build.bytes / x.build.documents;
    rows.push(benchRow(`search ${at} size on disk per document`, perDoc(r), 'bytes', perDoc(today), 0));
  }
  return rows;
}

function markdown(quality: Record<string, Quality>, scale: ScaleResult[]): string {
  const f = (n: number, d = 1) => n.toFixed(d);
  const lines = [
    '| ranking | nDCG@10 man pages | with distractors | fall |',
    '|---|---|---|---|',
    ...Object.entries(quality).map(
      ([name, q]) => `| ${name} | ${f(q.topical, 4)} | ${f(q.mixed, 4)} | ${f(q.topical - q.mixed, 4)} |`,
    ),
    '',
    `| docs | index | build docs/s | bytes/doc | ${FILTERS.map((x) => `p50 / p99 ms, ${x}`).join(' | ')} | exact, postings read |`,
    `|---|---|---|---|${FILTERS.map(() => '---|').join('')}---|`,
  ];
  for (const r of scale) {
    const cells = FILTERS.map((x) => {
      const l = r.latency[x];
      return l ? `${f(l.p50)} / ${f(l.p99)}` : '–';
    });
    const none = r.latency.none!;
    const exact = r.backend === 'today' ? '–' : `${Math.round(none.exact * 100)} %, ${Math.round(none.postings)}`;
    lines.push(
      `| ${kilo(r.size)} | ${r.backend} | ${f(r.build.built / r.build.seconds, 0)} | ${f(r.build.bytes / r.build.documents, 0)} | ${cells.join(' | ')} | ${exact} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export async function run(): Promise<BenchRow[]> {
  const sizes = (process.env['BENCH_SEARCH_SIZES'] ?? '10000,100000,1000000').split(',').map(Number);
  const queryCount = Number(process.env['BENCH_SEARCH_QUERIES'] ?? 200);
  const skipQuality = process.env['BENCH_SEARCH_QUALITY'] === '0';
  const backends = (process.env['BENCH_SEARCH_BACKENDS'] ?? 'sqlite,postgres').split(',');
  try {
    const quality: Record<string, Quality> = {};
    const rows: BenchRow[] = [];
    if (!skipQuality) {
      quality['today (v1: FTS5 bm25)'] = await measureQuality('today');
      quality['tiered BM25F, SQLite'] = await measureQuality('sqlite');
      if (backends.includes('postgres')) quality['tiered BM25F, PostgreSQL'] = await measureQuality('postgres');
      const today = quality['today (v1: FTS5 bm25)'];
      rows.push(...qualityRows('SQLite', quality['tiered BM25F, SQLite'], today));
      const pgQuality = quality['tiered BM25F, PostgreSQL'];
      if (pgQuality) rows.push(...qualityRows('PostgreSQL', pgQuality, today));
    }
    const scale: ScaleResult[] = [];
    for (const size of sizes) {
      const results = await measureScale(size, queryCount, backends);
      scale.push(...results);
      rows.push(...scaleRows(results));
      process.stderr.write(markdown(quality, scale));
    }
    const out = join(import.meta.dirname, '..', '..', '.bench-out');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'search.md'), markdown(quality, scale));
    return rows;
  } finally {
    await dropPgSchemas(sizes);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await run()) console.log([r.name, r.value, r.unit, r.baseline, r.ratio].join('\t'));
}
