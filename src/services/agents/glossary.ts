import { invalidField } from '../../errors/errors.js';

export interface GlossaryEntry {
  source: string;
  target: string;
}

/**
 * `custom_variables.glossary`: one entry a line, `source term => target term`. Blank lines and
 * lines starting with `#` are skipped; any other line without `=>` is an error naming the line,
 * since a silently dropped entry would be a term the client believes is enforced.
 */
export function parseGlossary(text: string | undefined): GlossaryEntry[] {
  if (!text) return [];
  const entries: GlossaryEntry[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const at = line.indexOf('=>');
    const source = at < 0 ? '' : line.slice(0, at).trim();
    const target = at < 0 ? '' : line.slice(at + 2).trim();
    if (!source || !target) {
      throw invalidField(
        'custom_variables.glossary',
        `line ${i + 1} must read \`source term => target term\`, got ${JSON.stringify(line.slice(0, 80))}`,
      );
    }
    entries.push({ source, target });
  }
  return entries;
}

const norm = (s: string) => s.normalize('NFC').toLocaleLowerCase();

/** The entries whose source term occurs in `text` (case-insensitive). */
export const entriesIn = (glossary: GlossaryEntry[], text: string): GlossaryEntry[] =>
  glossary.filter((e) => norm(text).includes(norm(e.source)));

/** The entries that apply to `source` but whose target term is missing from `translation`. */
export function missingTerms(glossary: GlossaryEntry[], source: string, translation: string): GlossaryEntry[] {
  const out = norm(translation);
  return entriesIn(glossary, source).filter((e) => !out.includes(norm(e.target)));
}

export const glossaryLines = (entries: GlossaryEntry[]): string =>
  entries.map((e) => `${e.source} => ${e.target}`).join('\n');
