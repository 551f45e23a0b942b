import { invalidField } from '../../errors/errors.js';
import { TermMatcher } from './term-matcher.js';

export interface GlossaryEntry {
  source: string;
  target: string;
}

/** `agents.general_translation.max_glossary_entries` and `max_glossary_bytes`. */
export interface GlossaryLimits {
  maxEntries: number;
  maxBytes: number;
}

export const GLOSSARY_DEFAULTS: GlossaryLimits = { maxEntries: 2000, maxBytes: 128 * 1024 };

const FIELD = 'custom_variables.glossary';
const norm = (s: string) => s.normalize('NFC').toLocaleLowerCase();

/**
 * A parsed glossary. Which entries a piece uses is found in one pass over the piece (TermMatcher),
 * its text normalised once, so a check costs the piece's length plus the glossary's, never their
 * product.
 */
export class Glossary {
  private sources: TermMatcher | undefined = undefined;

  constructor(readonly entries: GlossaryEntry[]) {}

  /** The entries whose source term occurs in `text` (case-insensitive), in glossary order. */
  entriesIn(text: string): GlossaryEntry[] {
    if (this.entries.length === 0) return [];
    this.sources ??= new TermMatcher(this.entries.map((e) => norm(e.source)));
    const found = this.sources.find(norm(text));
    return this.entries.filter((_, i) => found.has(i));
  }
}

/** Of the entries that apply to a piece, those whose target term is missing from its translation. */
export function missingTerms(applied: readonly GlossaryEntry[], translation: string): GlossaryEntry[] {
  if (applied.length === 0) return [];
  const found = new TermMatcher(applied.map((e) => norm(e.target))).find(norm(translation));
  return applied.filter((_, i) => !found.has(i));
}

/**
 * `custom_variables.glossary`: one entry a line, `source term => target term`. Blank lines and
 * lines starting with `#` are skipped; any other line without `=>` is an error naming the line,
 * since a silently dropped entry would be a term the client believes is enforced. The size and the
 * entry count are checked first (1214 naming the limit), before any entry is used.
 */
export function parseGlossary(text: string | undefined, limits: GlossaryLimits = GLOSSARY_DEFAULTS): Glossary {
  if (!text) return new Glossary([]);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) {
    throw invalidField(
      FIELD,
      `must be at most ${limits.maxBytes} bytes (agents.general_translation.max_glossary_bytes), got ${bytes}`,
    );
  }
  const entries: GlossaryEntry[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const at = line.indexOf('=>');
    const source = at < 0 ? '' : line.slice(0, at).trim();
    const target = at < 0 ? '' : line.slice(at + 2).trim();
    if (!source || !target) {
      throw invalidField(
        FIELD,
        `line ${i + 1} must read \`source term => target term\`, got ${JSON.stringify(line.slice(0, 80))}`,
      );
    }
    if (entries.length === limits.maxEntries) {
      throw invalidField(
        FIELD,
        `must have at most ${limits.maxEntries} entries (agents.general_translation.max_glossary_entries); line ${i + 1} is one more`,
      );
    }
    entries.push({ source, target });
  }
  return new Glossary(entries);
}

export const glossaryLines = (entries: readonly GlossaryEntry[]): string =>
  entries.map((e) => `${e.source} => ${e.target}`).join('\n');
