import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { compileBlockTerms } from '../../../src/services/safety/block-terms.js';
import { parseGuardVerdict } from '../../../src/services/safety/guard-verdict.js';
import { contentFilter, SafetyService } from '../../../src/services/safety/safety-service.js';

describe('block terms', () => {
  const match = compileBlockTerms(['forbiddenword', 'bad thing', 'Größe', '禁止词', 'c++']);

  it.each([
    ['forbiddenword', 'forbiddenword'],
    ['A FORBIDDENWORD poster', 'forbiddenword'],
    ['(forbiddenword)', 'forbiddenword'],
    ['end.forbiddenword', 'forbiddenword'],
    ['a bad   thing here', 'bad thing'],
    ['GRÖSSE? no: größe!', 'Größe'],
    ['一张禁止词海报', '禁止词'],
    ['learn c++ now', 'c++'],
  ])('finds whole words, any case and script: %s', (text, term) => {
    expect(match(text)).toBe(term);
  });

  it.each(['forbiddenwords', 'unforbiddenword', 'forbiddenword_2', 'badthing', 'Größen', 'nothing to see'])(
    'ignores words that merely contain a term: %s',
    (text) => {
      expect(match(text)).toBeUndefined();
    },
  );

  it('matches nothing without terms', () => {
    expect(compileBlockTerms([])('anything')).toBeUndefined();
    expect(compileBlockTerms(['  '])('anything')).toBeUndefined();
  });
});

describe('guard verdicts', () => {
  it.each([
    ['safe', { level: 3, verdict: 'safe', categories: [] }],
    ['\n\nunsafe\nS1,S10', { level: 0, verdict: 'unsafe', categories: ['S1', 'S10'] }],
    ['Safety: Safe\nCategories: None', { level: 3, verdict: 'safe', categories: [] }],
    ['Safety: Unsafe\nCategories: Violent', { level: 0, verdict: 'unsafe', categories: ['Violent'] }],
    [
      'Safety: Controversial\nCategories: Politically Sensitive Topics',
      { level: 1, verdict: 'controversial', categories: ['Politically Sensitive Topics'] },
    ],
    ['<think>hmm</think>\nsafe', { level: 3, verdict: 'safe', categories: [] }],
  ])('reads %j', (text, expected) => {
    expect(parseGuardVerdict(text)).toEqual(expected);
  });

  it.each(['', 'I cannot help with that', 'maybe'])('does not read %j as a verdict', (text) => {
    expect(parseGuardVerdict(text)).toBeUndefined();
  });
});

describe('safety service', () => {
  it('reports level 3 for a clean text and 0 for a block term, without asking the guard', async () => {
    let asked = 0;
    const s = new SafetyService({
      blockTerms: ['nope'],
      guard: async () => {
        asked++;
        return 'safe';
      },
      onGuardError: 'refuse',
    });
    expect(await s.check('hello', 'user')).toMatchObject({ level: 3, verdict: 'safe' });
    expect(asked).toBe(1);
    expect(await s.check('nope', 'user')).toMatchObject({ level: 0, verdict: 'unsafe', reason: 'block term "nope"' });
    expect(asked).toBe(1);
    const err = await s.require('NOPE', 'user').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(1301);
  });

  it('maps the guard model verdict to levels per stage', async () => {
    const s = new SafetyService({
      blockTerms: [],
      guard: async (text, stage) =>
        text.includes('knife') ? 'unsafe\nS1' : stage === 'assistant' ? 'Safety: Controversial' : 'safe',
      onGuardError: 'refuse',
    });
    const results = [await s.check('a cat', 'user'), await s.check('an answer', 'assistant')];
    expect(contentFilter(results)).toEqual([
      { role: 'user', level: 3 },
      { role: 'assistant', level: 1 },
    ]);
    await expect(s.require('a knife', 'user')).rejects.toMatchObject({ code: 1301 });
  });

  it('fails closed (1234) or reports level 2 when the guard model fails, as configured', async () => {
    const guard = async () => {
      throw new Error('down');
    };
    await expect(
      new SafetyService({ blockTerms: [], guard, onGuardError: 'refuse' }).check('x', 'user'),
    ).rejects.toMatchObject({ code: 1234 });
    expect(await new SafetyService({ blockTerms: [], guard, onGuardError: 'allow' }).check('x', 'user')).toMatchObject({
      level: 2,
      verdict: 'unchecked',
    });
    const babbling = new SafetyService({
      blockTerms: [],
      guard: async () => 'I think it is fine',
      onGuardError: 'allow',
    });
    expect(await babbling.check('x', 'user')).toMatchObject({ level: 2 });
  });
});
