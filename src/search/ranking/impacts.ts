import { analyze } from '../text/analyze.js';

/**
 * BM25F impacts, computed once when a document is written. A document's weight for a stem is
 *
 *   u = f·(k1+1) / (f + k1),   f = w_title·tf_title / B_title + tf_content / B_content,
 *   B_field = 1 − b + b · max(length_field, FLOOR·pivot_field) / pivot_field
 *
 * and its score for a query is Σ idf(stem) · u over the query's stems. Two choices differ from
 * textbook BM25, both measured on a topical collection with 63,666 short off-topic documents
 * added (docs/benchmarks.md, "Search"):
 * - Lengths are compared with a fixed pivot per field, not the collection's average length. With
 *   the average, a flood of short documents shrinks it ninefold and every long document then
 *   counts as nine times too long: nDCG@10 fell by 0.18. With a fixed pivot it moves by < 0.01.
 * - A field shorter than FLOOR·pivot counts as that long, so a two-word page that repeats a query
 *   word does not get its term frequency inflated by a tiny length.
 * u lies in (0, k1+1) and is stored quantised to LEVELS steps: a stem and its level make one
 * token (`LEVEL_CHARS[level] + stem`) of the tiered index, which ranking reads from the highest
 * level down (ranking/top-k.ts).
 */

export const K1 = 1.2;
const B = 0.75;
const TITLE_PIVOT = 8;
const CONTENT_PIVOT = 200;
const FLOOR = 0.7;
export const LEVELS = 16;
/** One character per level, lowest first: the prefix of a tiered token. */
export const LEVEL_CHARS = 'abcdefghijklmnop';
/** Only the head of a huge page is indexed: its terms' impacts are settled long before. */
export const MAX_INDEXED_CHARS = 200_000;

/** The ranking settings an index was built with; a change needs the index rebuilt (reindex). */
export interface RankingSettings {
  /** Weight of a title occurrence relative to one in the body. */
  titleWeight: number;
}

export const DEFAULT_TITLE_WEIGHT = 2;

const norm = (length: number, pivot: number) => 1 - B + (B * Math.max(length, FLOOR * pivot)) / pivot;

/** The midpoint of a level's range of u: what a token of that level adds, times idf. */
export const levelValue = (level: number) => ((level + 0.5) / LEVELS) * (K1 + 1);

/** Robertson–Spärck Jones idf as Lucene's BM25 uses it: always positive. */
export const idf = (documents: number, df: number) => Math.log(1 + (documents - df + 0.5) / (df + 0.5));

/** The tiered tokens of a document (one per distinct stem) and its length in tokens. */
export function documentTokens(title: string, content: string, settings: RankingSettings) {
  const titleStems = analyze(title);
  const contentStems = analyze(content.length > MAX_INDEXED_CHARS ? content.slice(0, MAX_INDEXED_CHARS) : content);
  const tf = new Map<string, number>();
  const titleNorm = norm(titleStems.length, TITLE_PIVOT) / settings.titleWeight;
  const contentNorm = norm(contentStems.length, CONTENT_PIVOT);
  for (const s of titleStems) tf.set(s, (tf.get(s) ?? 0) + 1 / titleNorm);
  for (const s of contentStems) tf.set(s, (tf.get(s) ?? 0) + 1 / contentNorm);
  const tokens: string[] = [];
  for (const [s, f] of tf) {
    const u = (f * (K1 + 1)) / (f + K1);
    const level = Math.min(LEVELS - 1, Math.floor((u / (K1 + 1)) * LEVELS));
    tokens.push(LEVEL_CHARS[level] + s);
  }
  return { tokens, length: titleStems.length + contentStems.length };
}

/** The level of a tiered token, and its stem. */
export const tokenLevel = (token: string) => LEVEL_CHARS.indexOf(token[0]!);
export const tokenStem = (token: string) => token.slice(1);

/** The tokens of a stem at every level, highest first. */
export const stemTokens = (stem: string) =>
  Array.from({ length: LEVELS }, (_, i) => LEVEL_CHARS[LEVELS - 1 - i]! + stem);

/** Adds `delta` to the count of each key: token and collection counts gathered over a write. */
export function bump(counts: Map<string, number>, keys: Iterable<string>, delta: number): void {
  for (const k of keys) if (k !== '') counts.set(k, (counts.get(k) ?? 0) + delta);
}
