import { idf, LEVEL_CHARS, LEVELS, levelValue, stemTokens, tokenLevel } from './impacts.js';

/**
 * Top-k over the tiered index, score-at-a-time (Anh & Moffat's impact ordering): every (stem,
 * level) token is a segment whose documents all gain idf(stem)·value(level). Segments are read
 * from the heaviest down until a budget of postings is spent, so a common word's long, light
 * segments are mostly never read (the cut-off for very common terms). The best partial scores are
 * then completed exactly from each candidate's own tokens, filtered, and the answer is final once
 * the k-th completed score reaches what any other document could still reach (the score bound);
 * otherwise the budget grows and the search goes on, up to reading everything.
 */

export interface Segment {
  token: string;
  /** Index of the stem in the query. */
  term: number;
  level: number;
  postings: number;
  weight: number;
}

export interface QueryPlan {
  stems: string[];
  /** Heaviest first. */
  segments: Segment[];
}

/** Segments of the query's stems, from the postings count of every tiered token (the index's statistics). */
export function planQuery(stems: string[], counts: ReadonlyMap<string, number>, documents: number): QueryPlan {
  const segments: Segment[] = [];
  stems.forEach((stem, term) => {
    const tokens = stemTokens(stem);
    const df = tokens.reduce((sum, t) => sum + (counts.get(t) ?? 0), 0);
    if (df === 0) return;
    const w = idf(documents, df);
    for (const token of tokens) {
      const postings = counts.get(token) ?? 0;
      const level = tokenLevel(token);
      if (postings > 0) segments.push({ token, term, level, postings, weight: w * levelValue(level) });
    }
  });
  segments.sort((a, b) => b.weight - a.weight || a.postings - b.postings);
  return { stems, segments };
}

/** What a document not yet seen in `segments[from..]` may still gain: the best level left of each stem. */
export function remainingBound(plan: QueryPlan, from: number): number {
  const best = new Map<number, number>();
  for (let i = from; i < plan.segments.length; i++) {
    const s = plan.segments[i]!;
    if (!best.has(s.term)) best.set(s.term, s.weight);
  }
  let sum = 0;
  for (const w of best.values()) sum += w;
  return sum;
}

/**
 * A candidate's exact score from its tiered tokens: a list, or the space-separated text a row
 * stores. In the text each query stem is found with `indexOf` and checked to be a whole token
 * (`<level><stem>` between spaces): splitting a page's thousand tokens costs more, and a regular
 * expression per stem took twice as long over the same rows.
 */
export function scorer(plan: QueryPlan): (tokens: string | readonly string[]) => number {
  const weights = new Map(plan.segments.map((s) => [s.token, s.weight]));
  // Each stem's weight by level (0 where the index has no such token).
  const byLevel = plan.stems.map((stem) =>
    Array.from({ length: LEVELS }, (_, l) => weights.get(LEVEL_CHARS[l] + stem) ?? 0),
  );
  return (tokens) => {
    let score = 0;
    if (typeof tokens !== 'string') {
      for (const token of tokens) score += weights.get(token) ?? 0;
      return score;
    }
    for (let i = 0; i < plan.stems.length; i++) {
      const level = levelIn(tokens, plan.stems[i]!);
      if (level >= 0 && level < LEVELS) score += byLevel[i]![level]!;
    }
    return score;
  };
}

const SPACE = 32;
const FIRST_LEVEL = LEVEL_CHARS.charCodeAt(0);

/** The level of `stem`'s token in space-separated `<level><stem>` tokens, or -1. */
export function levelIn(text: string, stem: string): number {
  for (let at = text.indexOf(stem, 1); at >= 0; at = text.indexOf(stem, at + 1)) {
    const end = at + stem.length;
    // Stems hold no spaces, so a space two places back (or the start) opens this token.
    const wholeToken =
      (end === text.length || text.charCodeAt(end) === SPACE) && (at === 1 || text.charCodeAt(at - 2) === SPACE);
    if (wholeToken) return text.charCodeAt(at - 1) - FIRST_LEVEL;
  }
  return -1;
}

export interface Candidate {
  id: number;
  /** The document's tiered tokens (at least those of the query's stems), or their text (levelIn). */
  tokens: string | readonly string[];
  /** False when the query's filters exclude it. */
  passes: boolean;
}

/**
 * Candidates whose filter columns are read first: only the `kept` ids (those that pass) have their
 * tokens read, the rest come back failing. `tokensOf` may return fewer rows (deleted since).
 */
export async function checkedCandidates(
  ids: number[],
  kept: number[],
  tokensOf: (kept: number[]) => Promise<{ id: number; tokens: string }[]> | { id: number; tokens: string }[],
): Promise<Candidate[]> {
  const out = new Map<number, Candidate>(ids.map((id) => [id, { id, tokens: '', passes: false }]));
  if (kept.length > 0) {
    for (const r of await tokensOf(kept)) out.set(r.id, { id: r.id, tokens: r.tokens, passes: true });
  }
  return [...out.values()];
}

/** How a backend reads the tiered index. */
export interface TierReader {
  /** The `limit` best documents by their sum over `segments`, best first, with those sums. */
  partialTop(segments: Segment[], limit: number): Promise<{ id: number; score: number }[]>;
  /** The candidates' tokens and whether they pass the query's filters, in any order. */
  candidates(ids: number[]): Promise<Candidate[]>;
  /**
   * Every document that may pass the query's filters, when a selective filter leaves at most `max`
   * of them (its ids are read to restrict the scoring anyway); else undefined.
   */
  fewDocuments(max: number): Promise<readonly number[] | undefined>;
}

export interface TopKOptions {
  /** Postings read before the first completion. */
  budget: number;
  /** Best partial scores completed per round. */
  candidates: number;
}

export const DEFAULT_TOP_K: TopKOptions = { budget: 40_000, candidates: 400 };

export interface Ranked {
  id: number;
  score: number;
}

/** The `count` best documents that pass the filters; `exact` when the score bound proved it. */
export async function topK(
  plan: QueryPlan,
  reader: TierReader,
  count: number,
  options: TopKOptions = DEFAULT_TOP_K,
): Promise<{ hits: Ranked[]; exact: boolean; postings: number }> {
  const score = scorer(plan);
  let budget = options.budget;
  let limit = Math.max(options.candidates, count * 8);
  // Each candidate's exact score, or FAILS when the filters exclude it: a later round, which
  // reaches further down the same ranking, reads only the candidates it has not seen.
  const completed = new Map<number, number>();
  let passed = 0;
  let askedFew = false;
  /** The best `count` of `ids`, every one completed. */
  const completeAll = async (ids: readonly number[]): Promise<Ranked[]> => {
    const unseen = ids.filter((id) => !completed.has(id));
    if (unseen.length > 0) {
      for (const c of await reader.candidates(unseen)) completed.set(c.id, c.passes ? score(c.tokens) : FAILS);
    }
    const hits: Ranked[] = [];
    for (const id of ids) {
      // Not a match without a query stem (score 0), nor when it fails a filter or was deleted since.
      const s = completed.get(id) ?? FAILS;
      if (s > 0) hits.push({ id, score: s });
    }
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.slice(0, count);
  };
  for (;;) {
    // The heaviest segments within the budget, and always at least one.
    let used = 0;
    let postings = 0;
    while (used < plan.segments.length && (used === 0 || postings + plan.segments[used]!.postings <= budget)) {
      postings += plan.segments[used]!.postings;
      used++;
    }
    const everything = used === plan.segments.length;
    const rest = remainingBound(plan, used);
    const partial = await reader.partialTop(plan.segments.slice(0, used), limit);
    const hits: Ranked[] = [];
    // Candidates are completed in chunks that double: the first is small, since the bound often
    // settles the answer at once in a small index; a large one seldom settles, and then the whole
    // list costs three reads (64 + 128 + 256) instead of seven (a round trip each on PostgreSQL).
    let chunk = Math.max(64, count * 4);
    // Every candidate whose partial score plus the most the unread segments add is above the k-th
    // partial score may still outrank the k-th hit; once those are completed (and pass), the bound
    // holds. When they are more than the first chunk, the chunks up to them would be read one after
    // another (at 1M documents nearly every query read all three): they are read in one go.
    chunk = Math.max(chunk, mayOutrank(partial, count, rest));
    let settled = false;
    for (let from = 0; from < partial.length && !settled; from += chunk, chunk *= 2) {
      const slice = partial.slice(from, from + chunk);
      const unseen = slice.filter((p) => !completed.has(p.id)).map((p) => p.id);
      if (unseen.length > 0) {
        for (const c of await reader.candidates(unseen)) {
          completed.set(c.id, c.passes ? score(c.tokens) : FAILS);
          if (c.passes) passed++;
        }
      }
      for (const p of slice) {
        const s = completed.get(p.id) ?? FAILS; // a document deleted since its postings were read
        if (s !== FAILS) hits.push({ id: p.id, score: s });
      }
      hits.sort((a, b) => b.score - a.score || a.id - b.id);
      hits.length = Math.min(hits.length, count);
      // Documents past the limit score no more than the last one returned.
      const next = partial[from + chunk] ?? (partial.length === limit ? partial.at(-1) : undefined);
      // Nothing below `next` can reach the k-th hit, whatever the unread segments add.
      settled = hits.length === count && (next === undefined || next.score + rest <= hits[count - 1]!.score);
    }
    // A full answer is final: exact when the bound proved it (or everything was read), else the
    // best of the candidates the budget reached (the cut-off).
    if (hits.length === count) {
      return { hits, exact: everything || (settled && hits[count - 1]!.score >= rest), postings };
    }
    // Fewer than `count` hits: the filters dropped candidates, or too few documents were reached.
    // When the filters leave no more documents than a round completes (a small site's pages of the
    // last year, say), completing them all is the exact answer, where reading on would take every
    // posting of the query's stems (1.7M at a million documents, 150 ms) to find those few.
    if (!everything && !askedFew) {
      askedFew = true;
      const few = await reader.fewDocuments(limit);
      if (few) return { hits: await completeAll(few), exact: true, postings };
    }
    if (partial.length === limit) limit = widerLimit(limit, count, passed, completed.size);
    else if (everything) return { hits, exact: true, postings };
    else budget *= 4;
  }
}

const FAILS = -1;

/** How many of the best partial scores, plus `rest`, are above the `count`-th partial score. */
export function mayOutrank(partial: readonly Ranked[], count: number, rest: number): number {
  const floor = partial[count - 1]?.score;
  if (floor === undefined) return partial.length;
  let may = count;
  while (may < partial.length && partial[may]!.score + rest > floor) may++;
  return may;
}

/**
 * The next round's candidates when the filters passed too few: enough, at the share of candidates
 * they have passed so far, for `count` and half as many again; at least twice and at most sixteen
 * times as many as this round's. (A fixed four times read 1,600 rows where 800 sufficed, at a
 * filter passing 2 % of a million documents.)
 */
export function widerLimit(limit: number, count: number, passed: number, checked: number): number {
  const wanted = passed === 0 ? Number.POSITIVE_INFINITY : Math.ceil(((count * 1.5) / passed) * checked);
  return Math.min(limit * 16, Math.max(limit * 2, wanted));
}
