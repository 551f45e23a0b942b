/**
 * Whole-word, case-insensitive matching of configured terms, Unicode-aware: a word boundary is any
 * character that is not a letter, mark or digit in any script (`\b` knows only ASCII). Scripts
 * written without spaces between words (Han, Kana, Hangul syllables inside Korean text are spaced,
 * but Chinese and Japanese are not; Thai, Lao, Khmer, Myanmar) have no word boundaries to find, so a
 * term's edge in such a script matches anywhere.
 */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = '[\\p{L}\\p{M}\\p{N}_]';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function termPattern(term: string): string {
  const chars = [...term.normalize('NFC')];
  const before = UNSPACED.test(chars[0]!) ? '' : `(?<!${WORD})`;
  const after = UNSPACED.test(chars.at(-1)!) ? '' : `(?!${WORD})`;
  // Runs of spaces inside a term match any run of white space.
  return before + chars.join('').trim().split(/\s+/).map(escapeRegExp).join('\\s+') + after;
}

/** A matcher for these terms: the first term found in a text, or undefined. */
export function compileBlockTerms(terms: readonly string[]): (text: string) => string | undefined {
  const usable = terms.map((t) => t.trim()).filter((t) => t.length > 0);
  if (usable.length === 0) return () => undefined;
  const patterns = usable.map((t) => new RegExp(termPattern(t), 'iu'));
  return (text) => {
    const normalized = text.normalize('NFC');
    const index = patterns.findIndex((p) => p.test(normalized));
    return index === -1 ? undefined : usable[index];
  };
}
