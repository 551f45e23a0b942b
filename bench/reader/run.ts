import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadPages } from './dataset.js';
import type { ExtractorName } from './extractors.js';
import { runHttp } from './http/run.js';
import type { Measurement, PageScore } from './measure.js';

/**
 * Reader extraction benchmark (docs/benchmarks.md): token precision, recall and F1 against hand-checked
 * ground truth (data/README.md), pages per second and peak memory of the reader's own pipeline
 * (Readability on linkedom with the fallback and boilerplate rules, `text` format), beside Mozilla
 * Readability on jsdom measured the same way. Each extractor runs in a child process of its own so
 * that memory figures are not mixed. `npx tsx bench/reader/run.ts [--pages]` prints the table alone.
 */

import type { BenchRow } from '../types.js';

export type { BenchRow };

const ROUNDS = 3;
const MEASURE = fileURLToPath(new URL('./measure.ts', import.meta.url));

function measureInChild(extractor: ExtractorName): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = fork(MEASURE, [extractor, String(ROUNDS)], {
      execArgv: ['--import', 'tsx', '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result: Measurement | undefined;
    child.on('message', (message) => {
      result = message as Measurement;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result) resolve(result);
      else reject(new Error(`reader bench child for ${extractor} exited with ${code} and no result`));
    });
  });
}

const mean = (pages: PageScore[], key: 'precision' | 'recall' | 'f1'): number =>
  pages.length ? pages.reduce((sum, page) => sum + page[key], 0) / pages.length : 0;

const row = (name: string, value: number, unit: string, baseline: number): BenchRow => ({
  name,
  value: Number(value.toFixed(4)),
  unit,
  baseline: Number(baseline.toFixed(4)),
  ratio: baseline === 0 ? 0 : Number((value / baseline).toFixed(3)),
});

let last: { ours: Measurement; jsdom: Measurement } | undefined;

export async function run(): Promise<BenchRow[]> {
  // One after the other: on a small shared machine, two at once would time each other.
  const ours = await measureInChild('ours');
  const jsdom = await measureInChild('jsdom');
  last = { ours, jsdom };
  const n = ours.pages.length;
  if (n === 0) return [];
  const kinds = [...new Set(ours.pages.map((page) => page.kind))];
  const groups = kinds.flatMap((kind) => {
    const mine = ours.pages.filter((page) => page.kind === kind);
    const theirs = jsdom.pages.filter((page) => page.kind === kind);
    const label = `${kind} pages (${mine.length})`;
    return (['f1', 'precision', 'recall'] as const).map((key) =>
      row(
        `reader ${key === 'f1' ? 'F1' : key}, ${label}`,
        mean(mine, key),
        key === 'f1' ? 'F1' : key === 'precision' ? 'P' : 'R',
        mean(theirs, key),
      ),
    );
  });
  const http = process.env['BENCH_READER_HTTP'] === '0' ? [] : await runHttp(loadPages());
  return [
    row(`reader extraction F1 (${n} pages)`, mean(ours.pages, 'f1'), 'F1', mean(jsdom.pages, 'f1')),
    ...groups,
    row('reader extraction precision', mean(ours.pages, 'precision'), 'P', mean(jsdom.pages, 'precision')),
    row('reader extraction recall', mean(ours.pages, 'recall'), 'R', mean(jsdom.pages, 'recall')),
    row('reader pages per second', ours.pagesPerSecond, 'pages/s', jsdom.pagesPerSecond),
    row('reader peak memory growth', ours.peakMb, 'MB', jsdom.peakMb),
    ...http,
  ];
}

/** Per-page scores of the last run, to see where the extractor wins or loses. */
export function perPage(): { name: string; ours: number; jsdom: number; oursP: number; oursR: number }[] {
  if (!last) return [];
  const base = new Map(last.jsdom.pages.map((page) => [page.name, page]));
  return last.ours.pages.map((page) => ({
    name: page.name,
    ours: Number(page.f1.toFixed(3)),
    jsdom: Number((base.get(page.name)?.f1 ?? 0).toFixed(3)),
    oursP: Number(page.precision.toFixed(3)),
    oursR: Number(page.recall.toFixed(3)),
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await run();
  if (process.argv.includes('--pages')) console.table(perPage());
  console.table(rows);
}
