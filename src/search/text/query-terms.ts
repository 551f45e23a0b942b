import { segmentCjk } from './cjk.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';

/** Queries longer than this are cut: every term costs a posting-list scan. */
export const MAX_QUERY_TERMS = 48;
const MAX_TERM_LENGTH = 64;

// Letters, digits and combining marks make words; everything else (quotes, operators, `NEAR`'s
// parentheses, `*`, `^`, `:`) only separates them, so no query syntax can survive tokenizing.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/**
 * The user's query as plain search terms: CJK segmented, lower-cased, stop words dropped (unless
 * nothing else is left), duplicates removed. Backends quote or bind each term, never the raw text.
 */
export function queryTerms(text: string): string[] {
  const words = segmentCjk(text.normalize('NFKC')).toLowerCase().match(WORD) ?? [];
  const unique = [...new Set(words.filter((w) => w.length <= MAX_TERM_LENGTH))];
  const content = unique.filter((w) => !ENGLISH_STOPWORDS.has(w));
  return (content.length > 0 ? content : unique).slice(0, MAX_QUERY_TERMS);
}
