import { languageCode } from './languages.js';

/**
 * ELD's n-gram tables and OpenCC's conversion tables take some 85 MB of heap: loaded on the first
 * `auto` request, not at start-up, so that a server that never detects a language (and every
 * request of one that does) does not carry them through each garbage collection.
 */
let tables: Promise<Tables> | undefined;
interface Tables {
  detect(text: string): string;
  toSimplified(text: string): string;
  toTraditional(text: string): string;
}

function loadTables(): Promise<Tables> {
  tables ??= Promise.all([import('eld/medium'), import('opencc-js')]).then(([{ eld }, { Converter }]) => ({
    detect: (text: string) => eld.detect(text).language,
    toSimplified: Converter({ from: 't', to: 'cn' }),
    toTraditional: Converter({ from: 'cn', to: 't' }),
  }));
  return tables;
}

/**
 * `source_lang: auto`: the language of the text, by ELD (Efficient Language Detector, n-gram
 * based), picked over franc and tinyld by bench/langid.ts (accuracy on bench/data/langid.tsv: see
 * docs/agents.md). Chinese is told apart into Simplified and Traditional by characters that exist
 * by OpenCC's conversion tables. Undefined when nothing is detected (too little text, digits only).
 */
export async function detectLanguage(text: string): Promise<string | undefined> {
  const { detect } = await loadTables();
  // The start of a long text decides: n-gram scores settle within a few hundred characters.
  const sample = text.slice(0, 2000);
  const detected = detect(sample);
  if (!detected) return undefined;
  if (detected === 'zh') return await chineseVariant(sample);
  return languageCode(detected) ?? detected;
}

/**
 * Chinese text as `zh-CN` or `zh-TW`, by which script's own characters it uses more (exported for
 * bench/langid.ts). OpenCC's dictionaries (opencc-js): a character that converts to something else
 * is one that only one of the two scripts writes that way.
 */
export async function chineseVariant(text: string): Promise<string> {
  const { toSimplified, toTraditional } = await loadTables();
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
