import { eld } from 'eld/medium';
import { Converter } from 'opencc-js';
import { languageCode } from './languages.js';

/**
 * `source_lang: auto`: the language of the text, by ELD (Efficient Language Detector, n-gram
 * based), picked over franc and tinyld by bench/langid.ts (accuracy on bench/data/langid.tsv: see
 * docs/agents.md). Chinese is told apart into Simplified and Traditional by characters that exist
 * by OpenCC's conversion tables. Undefined when nothing is detected (too little text, digits only).
 */
export function detectLanguage(text: string): string | undefined {
  // The start of a long text decides: n-gram scores settle within a few hundred characters.
  const sample = text.slice(0, 2000);
  const detected = eld.detect(sample).language;
  if (!detected) return undefined;
  if (detected === 'zh') return chineseVariant(sample);
  return languageCode(detected) ?? detected;
}

// OpenCC's dictionaries (opencc-js): a character that converts to something else is one that only
// one of the two scripts writes that way.
const toSimplified = Converter({ from: 't', to: 'cn' });
const toTraditional = Converter({ from: 'cn', to: 't' });

/** Chinese text as `zh-CN` or `zh-TW`, by which script's own characters it uses more (exported for bench/langid.ts). */
export function chineseVariant(text: string): string {
  const sample = [...text]
    .filter((ch) => /\p{Script=Han}/u.test(ch))
    .slice(0, 500)
    .join('');
  const simplified = toSimplified(sample);
  const traditional = toTraditional(sample);
  let traditionalOnly = 0;
  let simplifiedOnly = 0;
  const original = [...sample];
  for (const [i, ch] of [...simplified].entries()) if (ch !== original[i]) traditionalOnly++;
  for (const [i, ch] of [...traditional].entries()) if (ch !== original[i]) simplifiedOnly++;
  return traditionalOnly > simplifiedOnly ? 'zh-TW' : 'zh-CN';
}
