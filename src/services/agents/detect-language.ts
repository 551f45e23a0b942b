import { eld } from 'eld/medium';
import { languageCode } from './languages.js';

/**
 * `source_lang: auto`: the language of the text, by ELD (Efficient Language Detector, n-gram
 * based), picked over franc and tinyld by bench/langid.ts (accuracy on bench/data/langid.tsv: see
 * docs/agents.md). Chinese is told apart into Simplified and Traditional by characters that exist
 * only in one script. Undefined when nothing is detected (too little text, digits only).
 */
export function detectLanguage(text: string): string | undefined {
  // The start of a long text decides: n-gram scores settle within a few hundred characters.
  const sample = text.slice(0, 2000);
  const detected = eld.detect(sample).language;
  if (!detected) return undefined;
  if (detected === 'zh') return chineseVariant(sample);
  return languageCode(detected) ?? detected;
}

/** Frequent characters written differently in Traditional (first) and Simplified (second) Chinese. */
const TRADITIONAL = '們這個來說國時會學對與見為電話開關經問題點書車東門長過還發後實現樣從當聽讀寫氣裡頭應該無處體認';
const SIMPLIFIED = '们这个来说国时会学对与见为电话开关经问题点书车东门长过还发后实现样从当听读写气里头应该无处体认';

function chineseVariant(text: string): string {
  let traditional = 0;
  let simplified = 0;
  for (const ch of text) {
    if (TRADITIONAL.includes(ch) && !SIMPLIFIED.includes(ch)) traditional++;
    else if (SIMPLIFIED.includes(ch) && !TRADITIONAL.includes(ch)) simplified++;
  }
  return traditional > simplified ? 'zh-TW' : 'zh-CN';
}
