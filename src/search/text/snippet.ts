import { hasCjk } from './cjk.js';

export const SNIPPET_CHARS = 240;
/**
 * Whitespace that is not already one space: runs, and single tabs, newlines and the like. `\s+`
 * would rewrite every space between two words too, ten times slower over a document.
 */
const SPACING = /\s{2,}|[^\S ]/g;

interface Match {
  at: number;
  term: number;
}

/**
 * A crude suffix stripper, used only to spot matched words for the snippet ("running" ~ "runs");
 * ranking uses the backends' own stemmers.
 */
function roughStem(word: string): string {
  let w = word;
  for (const suffix of ['ies', 'ing', 'ed', 'es', 's', 'ly']) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      w = suffix === 'ies' ? `${w.slice(0, -3)}y` : w.slice(0, -suffix.length);
      break;
    }
  }
  // "runn" (from "running") -> "run"
  if (w.length > 3 && w.at(-1) === w.at(-2)) w = w.slice(0, -1);
  return w;
}

/** A word as FTS tokenizers see one: a letter or digit, then letters, digits and marks. */
const WORD_AT = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/uy;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;

/** The code point that ends just before `at`, as a string (a surrogate pair whole). */
function codePointBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text[at - 1]!;
}

/** An ASCII letter or digit (what WORD_AT reads of ASCII text). */
const isAsciiWordChar = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a);

/**
 * Whether a scan of `text` for words (WORD_AT from the start) would start one at `at`: not when a
 * word runs on from before it. Marks continue a word but never start one, so a run of marks after
 * something that is not a word does not join. An ASCII character before `at` decides at once (it
 * is never a mark); others go to the Unicode classes.
 */
function startsWord(text: string, at: number): boolean {
  if (at === 0) return true;
  const code = text.charCodeAt(at - 1);
  if (code < 0x80) return !isAsciiWordChar(code);
  let p = at;
  while (p > 0) {
    const before = codePointBefore(text, p);
    if (LETTER_OR_DIGIT.test(before)) return false;
    if (!MARK.test(before)) return true;
    p -= before.length;
  }
  return true;
}

/** Where the word starting at `at` ends: ASCII letters and digits read directly, the rest by WORD_AT. */
function wordEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (code >= 0x80) {
      WORD_AT.lastIndex = at;
      const word = WORD_AT.exec(text);
      return word === null ? at : at + word[0].length;
    }
    if (!isAsciiWordChar(code)) break;
    end++;
  }
  return end;
}

/**
 * roughStem strips at most four characters (a suffix of up to three, then one of a doubled pair) and
 * adds none it does not take ("ies" → "y"): a word more than four longer than a stem, or shorter
 * than it, cannot have that stem, and is not sliced out to be stemmed.
 */
const MAX_STRIPPED = 4;

/**
 * Every word of `lower` whose rough stem is one of the terms', found from the stems rather than by
 * stemming every word of the document: a word whose stem is S begins with S less its last letter
 * ("studies" → "study", "running" → "run"), so only the places where that prefix starts a word
 * are read. The same matches as stemming each word of such a scan, in a fraction of the time.
 */
function wordMatches(lower: string, stems: Map<string, number>, matches: Match[]): void {
  for (const [stem, term] of stems) {
    const prefix = stem.length >= 2 ? stem.slice(0, -1) : stem;
    if (prefix === '') continue;
    for (let at = lower.indexOf(prefix); at >= 0; at = lower.indexOf(prefix, at + 1)) {
      // Word starts first: a word is read only from its start, and then skipped, so a page of one
      // long word costs one pass, not one per place its letters recur.
      if (!startsWord(lower, at)) continue;
      const end = wordEnd(lower, at);
      if (end === at) continue;
      const length = end - at;
      if (length >= stem.length && length <= stem.length + MAX_STRIPPED && roughStem(lower.slice(at, end)) === stem) {
        matches.push({ at, term });
      }
      at = end - 1;
    }
  }
}

function findMatches(text: string, terms: string[]): Match[] {
  const lower = text.toLowerCase();
  const matches: Match[] = [];
  const wordTerms = new Map<string, number>();
  terms.forEach((t, i) => {
    if (hasCjk(t)) {
      // CJK text has no spaces to split on: look for the segment itself.
      for (let at = lower.indexOf(t); at >= 0 && matches.length < 1000; at = lower.indexOf(t, at + t.length)) {
        matches.push({ at, term: i });
      }
    } else {
      wordTerms.set(roughStem(t), i);
    }
  });
  if (wordTerms.size > 0) wordMatches(lower, wordTerms, matches);
  return matches.sort((a, b) => a.at - b.at);
}

/**
 * The span of `width` chars holding the most distinct terms (then the most hits): one pass with a
 * sliding window and a count per term.
 */
function bestSpan(matches: Match[], width: number): { from: number; to: number } | undefined {
  let best: { distinct: number; hits: number; from: number; to: number } | undefined;
  const counts = new Map<number, number>();
  let distinct = 0;
  let left = 0;
  for (let right = 0; right < matches.length; right++) {
    const r = matches[right]!;
    const seen = counts.get(r.term) ?? 0;
    if (seen === 0) distinct++;
    counts.set(r.term, seen + 1);
    while (r.at - matches[left]!.at > width) {
      const gone = matches[left++]!.term;
      const remaining = counts.get(gone)! - 1;
      counts.set(gone, remaining);
      if (remaining === 0) distinct--;
    }
    const hits = right - left + 1;
    if (!best || distinct > best.distinct || (distinct === best.distinct && hits > best.hits)) {
      best = { distinct, hits, from: matches[left]!.at, to: r.at };
    }
  }
  return best && { from: best.from, to: best.to };
}

/** Moves `at` to the nearest word boundary within a short reach, so the cut never splits a word. */
function snap(text: string, at: number, direction: 1 | -1): number {
  if (at <= 0 || at >= text.length) return Math.max(0, Math.min(at, text.length));
  for (let i = 0; i < 30; i++) {
    const p = at + i * direction;
    if (p <= 0 || p >= text.length) return Math.max(0, Math.min(p, text.length));
    if (/\s/.test(text[p]!)) return direction === 1 ? p + 1 : p;
  }
  return at; // CJK text or one very long word: cut where we are
}

/** A window of the content centred on the matched terms, cut at word boundaries. */
export function makeSnippet(content: string, terms: string[], width = SNIPPET_CHARS): string {
  const text = content.replace(SPACING, ' ').trim();
  if (text.length <= width) return text;
  const span = bestSpan(findMatches(text, terms), width);
  const centre = span ? Math.round((span.from + span.to) / 2) : 0;
  let from = Math.max(0, Math.min(centre - Math.floor(width / 2), text.length - width));
  let to = from + width;
  from = from === 0 ? 0 : snap(text, from, 1);
  to = to >= text.length ? text.length : snap(text, to, -1);
  const body = text.slice(from, to).trim();
  return `${from > 0 ? '…' : ''}${body}${to < text.length ? '…' : ''}`;
}
