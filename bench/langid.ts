/**
 * Language identification for `source_lang: auto`: accuracy of the candidate libraries
 * on bench/data/langid.tsv (300 short sentences written for this benchmark, 15 in each of 20
 * languages, Malay and Indonesian among them), and their time per sentence. Every candidate gets the
 * same post-processing as the agent (Chinese told apart into zh-CN / zh-TW by script). The row's
 * baseline is the best of the other libraries. Run alone: `npx tsx bench/langid.ts`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { eld as eldLarge } from 'eld/large';
import { eld as eldMedium } from 'eld/medium';
import { eld as eldSmall } from 'eld/small';
import { franc } from 'franc-min';
import { detect as tinyld } from 'tinyld';
import { chineseVariant } from '../src/services/agents/detect-language.js';
import { languageCode } from '../src/services/agents/languages.js';
import { type BenchRow, benchRow } from './types.js';

const DATA = fileURLToPath(new URL('./data/langid.tsv', import.meta.url));

/** franc answers ISO 639-3; the agent speaks the codes of languages.ts. */
const ISO3: Record<string, string> = {
  eng: 'en',
  fra: 'fr',
  deu: 'de',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  nld: 'nl',
  pol: 'pl',
  rus: 'ru',
  ukr: 'uk',
  tur: 'tr',
  vie: 'vi',
  ind: 'id',
  zsm: 'ms',
  zlm: 'ms',
  msa: 'ms',
  cmn: 'zh',
  jpn: 'ja',
  kor: 'ko',
  arb: 'ar',
  ara: 'ar',
  tha: 'th',
};

async function normalise(code: string, text: string): Promise<string> {
  const c = ISO3[code] ?? code;
  if (c === 'zh') return chineseVariant(text);
  return languageCode(c) ?? c;
}

const CANDIDATES: Record<string, (text: string) => string> = {
  'eld medium (chosen)': (t) => eldMedium.detect(t).language,
  'eld small': (t) => eldSmall.detect(t).language,
  'eld large': (t) => eldLarge.detect(t).language,
  'franc-min': (t) => franc(t, { minLength: 1 }),
  tinyld: (t) => tinyld(t),
};

export async function measure(): Promise<
  { name: string; accuracy: number; usPerSentence: number; misses: string[] }[]
> {
  const rows = readFileSync(DATA, 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => l.split('\t') as [string, string]);
  const results = [];
  for (const [name, detect] of Object.entries(CANDIDATES)) {
    for (const [, text] of rows.slice(0, 20)) await normalise(detect(text), text); // warm-up
    let right = 0;
    const misses: string[] = [];
    const start = performance.now();
    for (const [expected, text] of rows) {
      const got = await normalise(detect(text), text);
      if (got === expected) right++;
      else misses.push(`${expected}→${got || '?'}`);
    }
    const us = ((performance.now() - start) * 1000) / rows.length;
    results.push({ name, accuracy: right / rows.length, usPerSentence: us, misses });
  }
  return results;
}

export async function run(): Promise<BenchRow[]> {
  const results = await measure();
  for (const r of results) {
    process.stderr.write(`langid ${r.name}: ${(r.accuracy * 100).toFixed(1)}%, misses ${r.misses.join(' ')}\n`);
  }
  const chosen = results[0]!;
  const best = results.slice(1).reduce((a, b) => (b.accuracy > a.accuracy ? b : a));
  return [
    benchRow(
      `langid: accuracy of ${chosen.name} on 300 sentences in 20 languages (bench/data/langid.tsv) vs the best other library (${best.name})`,
      chosen.accuracy * 100,
      '%',
      best.accuracy * 100,
      1,
    ),
    ...results
      .slice(1)
      .map((r) =>
        benchRow(`langid: accuracy of ${r.name} vs ${chosen.name}`, r.accuracy * 100, '%', chosen.accuracy * 100, 1),
      ),
    benchRow(
      `langid: time per sentence of ${chosen.name} vs ${best.name}`,
      chosen.usPerSentence,
      'µs',
      best.usPerSentence,
      1,
    ),
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
  process.exit(0);
}
