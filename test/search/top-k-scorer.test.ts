import { describe, expect, it } from 'vitest';
import { LEVEL_CHARS } from '../../src/search/ranking/impacts.js';
import { excludesMany } from '../../src/search/ranking/query-filter.js';
import { BroadFilters, leftAfter, restrictionReads } from '../../src/search/ranking/restriction.js';
import {
  levelIn,
  mayOutrank,
  planQuery,
  scorer,
  type TierReader,
  topK,
  widerLimit,
} from '../../src/search/ranking/top-k.js';

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

describe('mayOutrank: the candidates completed in the first read', () => {
  const partial = [10, 9, 8, 7, 6, 5, 4, 3].map((score, id) => ({ id, score }));

  it('counts the partial scores that, with what is left unread, pass the k-th', () => {
    expect(mayOutrank(partial, 2, 0)).toBe(2); // nothing unread: the best two are the answer
    expect(mayOutrank(partial, 2, 1.5)).toBe(3); // 8 + 1.5 > 9, 7 + 1.5 is not
    expect(mayOutrank(partial, 2, 4)).toBe(5); // down to 6 + 4 > 9
    expect(mayOutrank(partial, 2, 100)).toBe(8); // all of them
  });

  it('takes every candidate when there are fewer than k', () => {
    expect(mayOutrank(partial.slice(0, 3), 5, 0)).toBe(3);
  });
});

describe('topK rounds when the filters pass few candidates', () => {
  // 2,000 documents with one stem at a level that falls with the id; only every 50th passes.
  const stem = 'turbin';
  const docs = Array.from({ length: 2000 }, (_, id) => ({ id, token: LEVEL_CHARS[15 - Math.floor(id / 125)] + stem }));
  const counts = new Map<string, number>();
  for (const d of docs) counts.set(d.token, (counts.get(d.token) ?? 0) + 1);
  const plan = planQuery([stem], counts, docs.length);
  const weightOf = new Map(plan.segments.map((s) => [s.token, s.weight]));

  function reader(passes: (id: number) => boolean, few?: number[]) {
    const read: number[] = [];
    const rounds: number[] = [];
    const r: TierReader = {
      partialTop: async (segments, limit) => {
        rounds.push(segments.length);
        const tokens = new Set(segments.map((s) => s.token));
        return docs
          .filter((d) => tokens.has(d.token))
          .map((d) => ({ id: d.id, score: weightOf.get(d.token)! }))
          .sort((a, b) => b.score - a.score || a.id - b.id)
          .slice(0, limit);
      },
      candidates: async (ids) => {
        read.push(...ids);
        return ids.map((id) => ({ id, tokens: docs[id]!.token, passes: passes(id) }));
      },
      fewDocuments: async (max) => (few && few.length <= max ? few : undefined),
    };
    return { r, read, rounds };
  }

  it('reads each candidate once across rounds, and finds the passing documents', async () => {
    const { r, read } = reader((id) => id % 50 === 0);
    const { hits } = await topK(plan, r, 10, { budget: 1_000_000, candidates: 100 });
    expect(hits.map((h) => h.id)).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400, 450]);
    expect(new Set(read).size).toBe(read.length);
  });

  it('completes every document the filters leave when they are few, instead of reading on', async () => {
    // Ten documents pass, spread over the ranking; the first round's budget reaches two of them.
    const passing = [5, 130, 400, 777, 1001, 1250, 1500, 1750, 1990, 1999];
    const { r, read, rounds } = reader((id) => passing.includes(id), passing);
    const budget = { budget: 250, candidates: 100 };
    const { hits, exact } = await topK(plan, r, 5, budget);
    expect(hits.map((h) => h.id)).toEqual([5, 130, 400, 777, 1001]);
    expect(exact).toBe(true);
    expect(rounds).toHaveLength(1);
    expect(new Set(read).size).toBe(read.length);
    // The answer reading on would give.
    const { r: slow } = reader((id) => passing.includes(id));
    expect((await topK(plan, slow, 5, budget)).hits).toEqual(hits);
  });

  it('reads on when the filters leave more documents than a round completes', async () => {
    // 170 pass, none among the first round's 100 candidates.
    const passing = Array.from({ length: 170 }, (_, i) => 300 + i * 10);
    const { r, rounds } = reader((id) => passing.includes(id), passing);
    const { hits } = await topK(plan, r, 5, { budget: 250, candidates: 100 });
    expect(hits.map((h) => h.id)).toEqual([300, 310, 320, 330, 340]);
    expect(rounds.length).toBeGreaterThan(1);
  });

  it('widens the next round by the share of candidates that passed, within 2x and 16x', () => {
    expect(widerLimit(400, 10, 9, 400)).toBe(800); // 667 wanted: at least twice
    expect(widerLimit(400, 10, 2, 400)).toBe(3000);
    expect(widerLimit(400, 10, 0, 400)).toBe(6400); // none passed: sixteen times
  });
});

describe('which filters the candidates are checked on first', () => {
  const collections = new Map([
    ['web', 900],
    ['kb', 100],
  ]);
  const filter = { collections: ['web', 'kb'], domain: 'example.com', cutoff: 1_700_000_000_000 };

  it('checks first while a domain, a recency window or a part of the collections is left', () => {
    expect(excludesMany(filter, collections)).toBe(true);
    expect(excludesMany({ ...filter, domain: null, cutoff: null }, collections)).toBe(false);
    expect(excludesMany({ ...filter, domain: null, cutoff: null, collections: ['web'] }, collections)).toBe(true);
  });

  it('leaves out the filter the scoring was restricted to', () => {
    expect(leftAfter(filter, 'domain', collections)).toEqual({ ...filter, domain: null });
    expect(leftAfter(filter, 'since', collections)).toEqual({ ...filter, cutoff: null });
    const byCollections = leftAfter(
      { ...filter, domain: null, cutoff: null, collections: ['kb'] },
      'collections',
      collections,
    );
    expect(excludesMany(byCollections, collections)).toBe(false);
    expect(excludesMany(leftAfter({ ...filter, cutoff: null }, 'domain', collections), collections)).toBe(false);
  });
});

describe('filters found too broad to restrict the scoring', () => {
  it('are remembered for a minute, then read again', () => {
    const broad = new BroadFilters();
    broad.add('since 1', 1_000);
    expect(broad.has('since 1', 1_000 + 59_999)).toBe(true);
    expect(broad.has('since 2', 1_000)).toBe(false);
    expect(broad.has('since 1', 1_000 + 60_000)).toBe(false);
    expect(broad.has('since 1', 1_000)).toBe(false); // expired and forgotten
  });

  it('keep at most a thousand keys, the oldest out first', () => {
    const broad = new BroadFilters();
    for (let i = 0; i <= 1_000; i++) broad.add(`domain d${i}`, 0);
    expect(broad.has('domain d0', 1)).toBe(false);
    expect(broad.has('domain d1', 1)).toBe(true);
    expect(broad.has('domain d1000', 1)).toBe(true);
  });

  it('key a recency cutoff to the hour, so the next query with the same window finds it', () => {
    const sql = {
      domain: () => ({ sql: '', params: [] }),
      collections: () => ({ sql: '', params: [] }),
      since: () => ({ sql: '', params: [] }),
    };
    const collections = new Map([['web', 10]]);
    const keys = (cutoff: number) =>
      restrictionReads({ collections: ['web'], domain: 'example.com', cutoff }, collections, sql).map((r) => r.key);
    const hour = 3_600_000;
    expect(keys(100 * hour + 5)).toEqual(keys(100 * hour + 60_000));
    expect(keys(100 * hour)).not.toEqual(keys(101 * hour));
    expect(keys(100 * hour).map((k) => k.split(' ')[0])).toEqual(['domain', 'since']);
  });
});
