import { stem } from 'porter2';
import { segmentCjk } from './cjk.js';
import { queryTerms } from './query-terms.js';

/**
 * The one tokenizer of both indexes, documents and queries alike: NFKC, CJK runs segmented into
 * words, lower case, Latin diacritics dropped (`café` = `cafe`), English words stemmed with
 * Porter2 (Snowball English: `running` = `runs`). Ranking happens in this process (ranking/), so
 * the backends store and look up these stems and never tokenize themselves: both rank alike.
 */

const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;
const LATIN_WITH_MARKS = /[\u00c0-\u024f\u1e00-\u1eff]/;
const MARKS = /\p{M}/gu;
const MAX_TERM_LENGTH = 64;
const CACHE_LIMIT = 100_000;

// Words repeat: stemming each distinct word once makes indexing several times faster.
const stems = new Map<string, string>();

function stemOf(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    let w = word;
    if (LATIN_WITH_MARKS.test(w)) w = w.normalize('NFD').replace(MARKS, '').normalize('NFC');
    s = /^[a-z]+$/.test(w) ? stem(w) : w;
    if (stems.size >= CACHE_LIMIT) stems.clear();
    stems.set(word, s);
  }
  return s;
}

/** The stems of a text, in order, repeats kept. */
export function analyze(text: string): string[] {
  const out: string[] = [];
  for (const m of segmentCjk(text.normalize('NFKC')).toLowerCase().matchAll(WORD)) {
    if (m[0].length <= MAX_TERM_LENGTH) out.push(stemOf(m[0]));
  }
  return out;
}

/** A query's distinct stems, stop words dropped unless nothing else is left (see queryTerms). */
export function queryStems(text: string): string[] {
  return [...new Set(queryTerms(text).map(stemOf))];
}
