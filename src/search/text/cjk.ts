/**
 * Chinese, Japanese and Korean runs carry no spaces between words, so both FTS5's unicode61 tokenizer
 * and PostgreSQL's parser would index a whole run as one token and a query could only match it whole.
 * `Intl.Segmenter` (ICU's dictionary segmentation) splits the runs into words; the same function is
 * applied to documents and queries so that both sides agree on token boundaries.
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc\u3005]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

// One segmenter: ICU's word break uses the same CJ dictionary whatever the locale.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

export function hasCjk(text: string): boolean {
  return HAS_CJK.test(text);
}

/** Words of one CJK run, in order. */
export function cjkWords(run: string): string[] {
  const words: string[] = [];
  for (const s of segmenter.segment(run)) {
    if (s.isWordLike) words.push(s.segment);
  }
  return words;
}

/** The text with spaces between the words of every CJK run; other text is unchanged. */
export function segmentCjk(text: string): string {
  if (!hasCjk(text)) return text;
  return text.replace(CJK_RUN, (run) => ` ${cjkWords(run).join(' ')} `);
}
