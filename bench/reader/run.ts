import { Readability } from '@mozilla/readability';
import { JSDOM } from 'jsdom';
import { readHtml } from '../../src/services/reader/html-reader.js';
import { type BenchPage, loadPages } from './dataset.js';
import { tokenF1 } from './f1.js';

/**
 * Reader extraction benchmark (design.md §8): token F1 against hand-checked ground truth, pages per
 * second and peak memory of the reader's own pipeline (Readability on linkedom, with the fallback and
 * boilerplate rules, producing the `text` format), beside Readability on jsdom measured in the same
 * run. Run alone with `npx tsx bench/reader/run.ts`.
 */

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline: number;
  ratio: number;
}

interface Measured {
  f1: number;
  pagesPerSecond: number;
  peakMb: number;
}

type Extractor = (page: BenchPage) => string;

const ours: Extractor = (page) =>
  readHtml(page.html, page.url, { url: page.url, return_format: 'text' }).result.content;

const jsdomReadability: Extractor = (page) => {
  const dom = new JSDOM(page.html, { url: page.url });
  const text = new Readability(dom.window.document).parse()?.textContent ?? '';
  dom.window.close();
  return text;
};

function measure(pages: BenchPage[], extract: Extractor, rounds: number): Measured {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  let f1 = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      const text = extract(page);
      if (round === 0) f1 += tokenF1(text, page.truth).f1;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    f1: pages.length ? f1 / pages.length : 0,
    pagesPerSecond: (pages.length * rounds) / seconds,
    peakMb: (peak - startRss) / (1024 * 1024),
  };
}

const row = (name: string, value: number, unit: string, baseline: number): BenchRow => ({
  name,
  value: Number(value.toFixed(4)),
  unit,
  baseline: Number(baseline.toFixed(4)),
  ratio: baseline === 0 ? 0 : Number((value / baseline).toFixed(3)),
});

export async function run(): Promise<BenchRow[]> {
  const pages = loadPages();
  if (pages.length === 0) return [];
  const rounds = 3;
  // Warm both up once so that module loading and JIT do not count against either.
  measure(pages.slice(0, 2), ours, 1);
  measure(pages.slice(0, 2), jsdomReadability, 1);
  const mine = measure(pages, ours, rounds);
  const base = measure(pages, jsdomReadability, rounds);
  return [
    row(`reader extraction F1 (${pages.length} pages)`, mine.f1, 'F1', base.f1),
    row('reader pages per second', mine.pagesPerSecond, 'pages/s', base.pagesPerSecond),
    row('reader peak memory growth', mine.peakMb, 'MB', base.peakMb),
  ];
}

/** Per-page scores, to see where the extractor wins or loses (`npx tsx bench/reader/run.ts --pages`). */
export function perPage(): { name: string; ours: number; jsdom: number }[] {
  return loadPages().map((page) => ({
    name: page.name,
    ours: tokenF1(ours(page), page.truth).f1,
    jsdom: tokenF1(jsdomReadability(page), page.truth).f1,
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--pages')) console.table(perPage());
  console.table(await run());
}
