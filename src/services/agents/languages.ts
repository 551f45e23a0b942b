/**
 * The languages the translation agent names in its prompts: the live platform's target codes and
 * the other common ones. Codes match case-insensitively (`zh-cn` is `zh-CN`); `zh` alone means
 * Simplified Chinese, as on the live platform.
 */
export const LANGUAGES: Readonly<Record<string, string>> = {
  'zh-CN': 'Simplified Chinese',
  'zh-TW': 'Traditional Chinese',
  en: 'English',
  ja: 'Japanese',
  ko: 'Korean',
  fr: 'French',
  de: 'German',
  es: 'Spanish',
  ru: 'Russian',
  pt: 'Portuguese',
  it: 'Italian',
  ar: 'Arabic',
  th: 'Thai',
  vi: 'Vietnamese',
  id: 'Indonesian',
  ms: 'Malay',
  tr: 'Turkish',
  nl: 'Dutch',
  pl: 'Polish',
  uk: 'Ukrainian',
  cs: 'Czech',
  sk: 'Slovak',
  sv: 'Swedish',
  da: 'Danish',
  no: 'Norwegian',
  fi: 'Finnish',
  el: 'Greek',
  he: 'Hebrew',
  hi: 'Hindi',
  bn: 'Bengali',
  ur: 'Urdu',
  fa: 'Persian',
  hu: 'Hungarian',
  ro: 'Romanian',
  bg: 'Bulgarian',
  hr: 'Croatian',
  sr: 'Serbian',
  sl: 'Slovenian',
  lt: 'Lithuanian',
  lv: 'Latvian',
  et: 'Estonian',
  ca: 'Catalan',
  tl: 'Filipino',
  sw: 'Swahili',
  km: 'Khmer',
  lo: 'Lao',
  my: 'Burmese',
};

const ALIASES: Readonly<Record<string, string>> = { zh: 'zh-CN', 'zh-hans': 'zh-CN', 'zh-hant': 'zh-TW', nb: 'no' };
const BY_LOWER = new Map(Object.keys(LANGUAGES).map((code) => [code.toLowerCase(), code]));

/** The canonical code of a language code, or undefined when it is not in the list. */
export function languageCode(code: string): string | undefined {
  const lower = code.trim().toLowerCase();
  return BY_LOWER.get(ALIASES[lower]?.toLowerCase() ?? lower);
}

export const languageName = (code: string): string => LANGUAGES[code] ?? code;
