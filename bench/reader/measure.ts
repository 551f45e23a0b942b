import { type BenchPage, loadPages } from './dataset.js';
import { type ExtractorName, loadExtractor } from './extractors.js';
import { type Score, tokenF1 } from './f1.js';

/**
 * One extractor measured alone, in a process of its own (run.ts forks this file once per extractor),
 * so that peak memory is that extractor's and nothing else's: quality per page on the first round,
 * pages per second over all rounds, and the peak resident memory reached while extracting, above what
 * the process held once its code and the pages were loaded.
 */
export interface PageScore extends Score {
  name: string;
  kind: string;
}

export interface Measurement {
  extractor: ExtractorName;
  pages: PageScore[];
  pagesPerSecond: number;
  peakMb: number;
}

export async function measure(name: ExtractorName, rounds: number, pages: BenchPage[]): Promise<Measurement> {
  const extract = await loadExtractor(name);
  // Warm-up on a few pages so that lazy module loading and the first JIT tiers do not count.
  for (const page of pages.slice(0, 3)) extract(page);
  (globalThis as { gc?: () => void }).gc?.();
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  const scores: PageScore[] = [];
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const page of pages) {
      const text = extract(page);
      if (round === 0) scores.push({ name: page.name, kind: page.kind, ...tokenF1(text, page.truth) });
      peak = Math.max(peak, process.memoryUsage().rss);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  // maxRSS (KiB) also catches peaks between two samples.
  peak = Math.max(peak, process.resourceUsage().maxRSS * 1024);
  return {
    extractor: name,
    pages: scores,
    pagesPerSecond: (pages.length * rounds) / seconds,
    peakMb: (peak - startRss) / (1024 * 1024),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const name = process.argv[2] === 'jsdom' ? 'jsdom' : 'ours';
  const rounds = Number(process.argv[3] ?? 3);
  const result = await measure(name, rounds, loadPages());
  process.send?.(result);
  if (!process.send) console.log(JSON.stringify(result));
}
