import { describe, expect, it } from 'vitest';
import { segmentCjk } from '../../src/search/text/cjk.js';
import { normaliseDomain, recencyCutoff } from '../../src/search/text/filters.js';
import { queryTerms } from '../../src/search/text/query-terms.js';
import { makeSnippet } from '../../src/search/text/snippet.js';

describe('search text helpers', () => {
  it('reduces queries to plain terms', () => {
    expect(queryTerms('"Tidal" NEAR(turbines, cable)* ^title: -power')).toEqual([
      'tidal',
      'near',
      'turbines',
      'cable',
      'title',
      'power',
    ]);
    expect(queryTerms('the effect of the drug')).toEqual(['effect', 'drug']);
    expect(queryTerms('to be or not to be')).toEqual(['to', 'be', 'or', 'not']);
    expect(queryTerms('潮汐涡轮机')).toEqual(['潮汐', '涡轮', '机']);
    expect(queryTerms(". - ( ) , / ' % + $ :")).toEqual([]);
  });

  it('segments CJK runs and leaves other text alone', () => {
    expect(segmentCjk('plain text')).toBe('plain text');
    expect(segmentCjk('東京の天気').trim().split(/\s+/)).toEqual(['東京', 'の', '天気']);
  });

  it('normalises domain filters', () => {
    expect(normaliseDomain('https://Example.com/path?q=1')).toBe('example.com');
    expect(normaliseDomain('*.example.org.')).toBe('example.org');
    expect(normaliseDomain('  ')).toBeUndefined();
  });

  it('floors the recency cut-off to the start of the UTC day', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(new Date(recencyCutoff('oneDay', now)!).toISOString()).toBe('2026-03-14T00:00:00.000Z');
    expect(recencyCutoff('noLimit', now)).toBeUndefined();
  });

  it('cuts snippets at word boundaries around the matches', () => {
    const text = `${'alpha beta gamma '.repeat(30)}the rare zeppelin word ${'delta epsilon '.repeat(30)}`;
    const s = makeSnippet(text, ['zeppelin']);
    expect(s).toContain('zeppelin');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(
      s
        .slice(1, -1)
        .trim()
        .split(' ')
        .every((w) => /^(alpha|beta|gamma|the|rare|zeppelin|word|delta|epsilon)$/.test(w)),
    ).toBe(true);
    expect(makeSnippet('short text', ['x'])).toBe('short text');
    expect(makeSnippet(`${'甲乙丙丁'.repeat(100)}潮汐${'甲乙丙丁'.repeat(100)}`, ['潮汐'])).toContain('潮汐');
  });
});

describe('snippet matching', () => {
  const filler = 'alpha beta gamma '.repeat(20);

  it('matches a word by its rough stem, whatever its suffix', () => {
    expect(makeSnippet(`${filler}new studies of tides ${filler}`, ['study'])).toContain('studies');
    expect(makeSnippet(`${filler}he kept running home ${filler}`, ['runs'])).toContain('running');
  });

  it('does not match a stem inside another word', () => {
    // "restudy" holds "study" but is another word: the snippet stays at the start.
    const s = makeSnippet(`${filler}restudy ${filler}${filler}`, ['study']);
    expect(s.startsWith('alpha')).toBe(true);
  });

  it('lets marks continue a word but never start one', () => {
    // "xe\u0301cole" is one word (no match for école's stem); after a space, "\u0301ecole" holds one.
    const far = `${filler}xe\u0301cole ${filler}${filler}`;
    expect(makeSnippet(far, ['e\u0301cole']).startsWith('alpha')).toBe(true);
    expect(makeSnippet(`${filler}${filler} \u0301ecole end`, ['ecole'])).toContain('ecole end');
  });

  it('reads a word on past ASCII into other letters and marks', () => {
    // "studyé" and "studies\u0301" are words of their own (é and the mark continue them): no match.
    const s = makeSnippet(`${filler}studyé studies\u0301 ${filler}${filler}`, ['study']);
    expect(s.startsWith('alpha')).toBe(true);
    // A non-ASCII letter before a stem joins it to the word before: no match either.
    expect(makeSnippet(`${filler}éstudy ${filler}${filler}`, ['study']).startsWith('alpha')).toBe(true);
    // After a non-ASCII character that is not a letter (a dash, a no-break space), a word starts.
    expect(makeSnippet(`${filler}${filler}—studies end`, ['study'])).toContain('studies end');
    expect(makeSnippet(`${filler}${filler}\u00a0studies end`, ['study'])).toContain('studies end');
  });

  it('matches no word longer than its suffixes can make it', () => {
    // "runningly" strips to "runningl", not "run"; "runnings" to "running".
    const s = makeSnippet(`${filler}runningly runnings ${filler}${filler}`, ['run']);
    expect(s.startsWith('alpha')).toBe(true);
  });

  it('prefers the window with the most distinct terms', () => {
    const text = `tide ${filler}tide tide tide ${filler}turbine tide ${filler}`;
    expect(makeSnippet(text, ['tide', 'turbine'], 40)).toContain('turbine tide');
  });

  it('reads a page of one long word once, not once per place its letters recur', () => {
    // Read from every "a" to the word's end, this page would cost 300,000²/2 character steps.
    const page = `${'a'.repeat(300_000)} tide`;
    expect(makeSnippet(page, ['as', 'tide'])).toContain('tide');
  });

  it('collapses every kind of whitespace run to one space', () => {
    expect(makeSnippet('a\t\tb\n\nc\u00a0d  e \r\n f', ['b'])).toBe('a b c d e f');
  });
});
