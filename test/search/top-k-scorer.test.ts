import { describe, expect, it } from 'vitest';
import { LEVEL_CHARS } from '../../src/search/ranking/impacts.js';
import { levelIn, planQuery, scorer } from '../../src/search/ranking/top-k.js';

describe('levelIn: a stem found as a whole tiered token in a row text', () => {
  it('reads the level of the first, a middle and the last token', () => {
    const text = 'cturbin apow fseab';
    expect(levelIn(text, 'turbin')).toBe(2);
    expect(levelIn(text, 'pow')).toBe(0);
    expect(levelIn(text, 'seab')).toBe(5);
  });

  it('does not take a stem that is only part of another token', () => {
    // 'ow' ends 'apow', 'turb' starts 'cturbin', 'bin' is inside it: none is a token of its own.
    expect(levelIn('cturbin apow', 'ow')).toBe(-1);
    expect(levelIn('cturbin apow', 'turb')).toBe(-1);
    expect(levelIn('cturbin apow', 'bin')).toBe(-1);
    // A stem that is also a level letter followed by the rest of another token.
    expect(levelIn('bab', 'b')).toBe(-1);
    expect(levelIn('bab cb', 'b')).toBe(2);
  });

  it('keeps looking past a partial match to the whole token later in the text', () => {
    expect(levelIn('dpowder epow', 'pow')).toBe(4);
    expect(levelIn('', 'pow')).toBe(-1);
  });
});

describe('scorer', () => {
  it('scores a row text as it scores the same tokens as a list', () => {
    const counts = new Map<string, number>();
    for (const stem of ['turbin', 'pow', 'seab']) {
      for (let l = 0; l < LEVEL_CHARS.length; l++) counts.set(LEVEL_CHARS[l] + stem, 1 + l);
    }
    const plan = planQuery(['turbin', 'pow', 'seab', 'absent'], counts, 1000);
    const score = scorer(plan);
    const tokens = ['cturbin', 'apow', 'xyz', 'dpowder'];
    expect(score(tokens.join(' '))).toBeCloseTo(score(tokens), 12);
    expect(score(tokens)).toBeGreaterThan(0);
    expect(score('dpowder cturbinx')).toBe(0);
  });
});
