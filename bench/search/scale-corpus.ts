/**
 * The corpus of the latency benchmark at 10k, 100k and 1M documents: the judged man pages first,
 * then noisy copies of them (data/README.md). Every document is a pure function of its position, so
 * any prefix is the same on every run and a build can stop and go on.
 *
 * A copy keeps a window of 25-100 % of its page's words, each replaced with probability 0.3 by a
 * word drawn from the corpus's own token stream: topics repeat ~200 times at 1M, common words
 * ("file", "option", "command") land in a large share of all documents, so posting lists are as long
 * as in a real collection of that size. Hosts follow a Zipf law over 2,000 sites (a domain filter
 * then ranges from a site with a tenth of the web to one with a few pages) and 85 % of documents
 * carry a publish date within the three years before NOW.
 */
import type { SearchDocument } from '../../src/search/types.js';
import { type BenchDoc, docUrl, rng } from './collection.js';

export const NOW = new Date('2026-01-01T00:00:00Z');
const HOSTS = 2000;
const DATED = 0.85;
const YEARS_MS = 3 * 365 * 86_400_000;

/** The host of Zipf rank k (0 = the most common). */
export const hostOf = (k: number) => (k % 7 === 3 ? `docs.site${k}.example` : `site${k}.example`);

export class ScaleCorpus {
  readonly #docs: BenchDoc[];
  readonly #words: string[];
  readonly #hostCdf: number[];

  constructor(docs: BenchDoc[]) {
    this.#docs = docs;
    this.#words = docs.flatMap((d) => d.content.split(' ')).filter((w) => w !== '');
    const weights = Array.from({ length: HOSTS }, (_, k) => 1 / (k + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    let sum = 0;
    this.#hostCdf = weights.map((w) => (sum += w / total));
  }

  /** Zipf rank of the host at the cumulative share u in [0, 1). */
  hostRank(u: number): number {
    let lo = 0;
    let hi = HOSTS - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.#hostCdf[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Share of all documents on host rank k. */
  hostShare(k: number): number {
    return this.#hostCdf[k]! - (k === 0 ? 0 : this.#hostCdf[k - 1]!);
  }

  /** The document at position i (0-based). */
  doc(i: number): SearchDocument {
    const base = this.#docs[i % this.#docs.length]!;
    const copy = Math.floor(i / this.#docs.length);
    const random = rng(0x9e3779b9 ^ Math.imul(i + 1, 0x85ebca6b));
    const host = hostOf(this.hostRank(random()));
    const url = docUrl(base.id, copy).replace('bench.local', host);
    const doc: SearchDocument = { url, title: base.title, content: base.content };
    if (random() < DATED) doc.published = new Date(NOW.getTime() - Math.floor(random() * YEARS_MS)).toISOString();
    if (copy === 0) return doc;
    const vary = (words: string[]) =>
      words.map((w) => (random() < 0.3 ? this.#words[Math.floor(random() * this.#words.length)]! : w)).join(' ');
    const words = base.content.split(' ');
    const keep = Math.max(20, Math.ceil(words.length * (0.25 + 0.75 * random())));
    const from = Math.floor(random() * Math.max(1, words.length - keep + 1));
    doc.title = vary(base.title.split(' '));
    doc.content = vary(words.slice(from, from + keep));
    return doc;
  }

  *range(from: number, to: number): Generator<SearchDocument> {
    for (let i = from; i < to; i++) yield this.doc(i);
  }
}
