import TurndownService from 'turndown';
import { describe, expect, it } from 'vitest';
import { escapeWhereNeeded, toMarkdown } from '../../../src/services/reader/markdown.js';

/** markdown.ts skips turndown's escaping for text it would leave as it is; the output must not change. */

const service = new TurndownService();
const turndownEscape = (text: string) => TurndownService.prototype.escape.call(service, text);

const SAMPLES = [
  '',
  'plain words, no marks at all.',
  '  leading spaces - then a dash',
  'a \\ backslash',
  'a * star',
  '- a list marker',
  '+ plus',
  '+plus without its space',
  '== heading underline',
  '## heading',
  '####### seven hashes',
  'a `code` span',
  '~~~ fence',
  '~ tilde',
  'a [link] text',
  '> quote',
  'snake_case',
  '1. numbered',
  '12 apples',
  'x1. not at the start',
  'ends with a dash -',
  'Ünïcödé ٣. and 广告',
  '٣. Arabic-Indic digit',
];

describe('escaping of Markdown characters (markdown.ts)', () => {
  it("gives turndown's own escaping for every text", () => {
    for (const text of SAMPLES) expect(escapeWhereNeeded.call(service, text)).toBe(turndownEscape(text));
  });

  it('escapes in the converted article as turndown does', () => {
    expect(toMarkdown('<p>1. a *b* [c] d_e</p><p>plain</p>', { gfm: true })).toBe(
      '1\\. a \\*b\\* \\[c\\] d\\_e\n\nplain',
    );
  });
});
