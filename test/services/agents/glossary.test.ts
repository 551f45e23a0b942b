import { describe, expect, it } from 'vitest';
import { missingTerms, parseGlossary } from '../../../src/services/agents/glossary.js';
import { TermMatcher } from '../../../src/services/agents/term-matcher.js';

describe('glossary', () => {
  it('parses one entry a line, skipping blanks and # comments', () => {
    expect(
      parseGlossary('cat => chat\n\n# animals\n  dog=>chien  \r\nlarge language model => 大语言模型').entries,
    ).toEqual([
      { source: 'cat', target: 'chat' },
      { source: 'dog', target: 'chien' },
      { source: 'large language model', target: '大语言模型' },
    ]);
    expect(parseGlossary(undefined).entries).toEqual([]);
  });

  it.each(['cat', 'cat =>', '=> chat', 'cat -> chat'])('refuses %j, naming the field and line', (line) => {
    expect(() => parseGlossary(`a => b\n${line}`)).toThrow(/custom_variables\.glossary.*line 2/);
  });

  it('applies the entries whose source occurs, case-insensitively', () => {
    const g = parseGlossary('Weather => météo\nport => harbour');
    expect(g.entriesIn('The WEATHER is fine.')).toEqual([{ source: 'Weather', target: 'météo' }]);
  });

  it('finds the target terms missing from a translation', () => {
    const g = parseGlossary('weather => météo\nwalk => promenade');
    const applied = g.entriesIn('The weather; a walk.');
    expect(missingTerms(applied, 'La Météo est belle.')).toEqual([{ source: 'walk', target: 'promenade' }]);
    expect(missingTerms(applied, 'météo, promenade')).toEqual([]);
  });
});

describe('glossary limits', () => {
  it('refuses more entries than agents.general_translation.max_glossary_entries, naming the line', () => {
    const text = Array.from({ length: 4 }, (_, i) => `term${i} => terme${i}`).join('\n');
    expect(parseGlossary(text, { maxEntries: 4, maxBytes: 1024 }).entries).toHaveLength(4);
    expect(() => parseGlossary(`${text}\nlast => dernier`, { maxEntries: 4, maxBytes: 1024 })).toThrow(
      /custom_variables\.glossary: must have at most 4 entries \(agents\.general_translation\.max_glossary_entries\); line 5/,
    );
  });

  it('refuses a glossary over max_glossary_bytes before parsing a line', () => {
    const text = `${'x'.repeat(2000)} => y\nbroken line`;
    expect(() => parseGlossary(text, { maxEntries: 10, maxBytes: 1024 })).toThrow(
      /at most 1024 bytes \(agents\.general_translation\.max_glossary_bytes\), got 2017/,
    );
  });

  it('with the default caps, the 150,000-entry glossary of the report is refused at once', () => {
    const text = Array.from({ length: 150_000 }, (_, i) => `word${i} => mot${i}`).join('\n');
    const started = performance.now();
    expect(() => parseGlossary(text)).toThrow(/max_glossary_bytes/);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('the check is linear in the text', () => {
  it('finds every term that occurs, overlapping and nested ones too', () => {
    const terms = ['he', 'she', 'his', 'hers', 'a', 'aa', 'aaa', 'x'];
    const found = new TermMatcher(terms).find('ushers aaa');
    expect([...found].map((i) => terms[i]).sort()).toEqual(['a', 'aa', 'aaa', 'he', 'hers', 'she']);
    expect(new TermMatcher([]).find('anything').size).toBe(0);
  });

  it('agrees with a search per term on random texts', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const word = () => Array.from({ length: 1 + rand(4) }, () => 'abcé'[rand(4)]).join('');
    for (let round = 0; round < 50; round++) {
      const terms = Array.from({ length: 1 + rand(30) }, word);
      const text = Array.from({ length: rand(200) }, () => 'abcé '[rand(5)]).join('');
      const expected = terms.map((t, i) => (text.includes(t) ? i : -1)).filter((i) => i >= 0);
      expect([...new TermMatcher(terms).find(text)].sort((a, b) => a - b)).toEqual(expected);
    }
  });

  it('does the work of the text and the terms, not their product', () => {
    // 2,000 entries (the default cap) on a 200,000-character piece: a search per entry would
    // scan the text 2,000 times over; one pass stays within a few hundred operations per character.
    const text = 'the quick brown fox jumps over the lazy dog '.repeat(4500);
    const g = parseGlossary(Array.from({ length: 2000 }, (_, i) => `term number ${i} => terme ${i}`).join('\n'));
    let calls = 0;
    const normalize = String.prototype.normalize;
    String.prototype.normalize = function (this: string, form?: string) {
      calls++;
      return normalize.call(this, form);
    };
    try {
      expect(g.entriesIn(text)).toEqual([]);
      expect(g.entriesIn(`${text} term number 7`)).toEqual([{ source: 'term number 7', target: 'terme 7' }]);
    } finally {
      String.prototype.normalize = normalize;
    }
    // The piece is normalised once per check; the sources once for the request.
    expect(calls).toBe(2 + 2000);
  });
});
