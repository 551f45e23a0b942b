import { describe, expect, it } from 'vitest';
import { Accumulator, kthLargest } from '../../src/search/ranking/accumulator.js';

describe('Accumulator', () => {
  it('sums the weights of each id over lists and returns the best, ties by id', () => {
    const acc = new Accumulator();
    acc.add(Uint32Array.of(1, 5, 9), 2);
    acc.add(Uint32Array.of(5, 7), 1.5);
    acc.add([9], 1.5);
    expect(acc.top(3)).toEqual([
      { id: 5, score: 3.5 },
      { id: 9, score: 3.5 },
      { id: 1, score: 2 },
    ]);
  });

  it('is empty after top(), ready for the next query', () => {
    const acc = new Accumulator();
    acc.add(Uint32Array.of(3, 4), 1);
    acc.top(10);
    expect(acc.top(10)).toEqual([]);
    acc.add(Uint32Array.of(4), 2);
    expect(acc.top(10)).toEqual([{ id: 4, score: 2 }]);
  });

  it('adds only the ids a restriction allows', () => {
    const acc = new Accumulator();
    acc.add(Uint32Array.of(1, 2, 3, 4), 1, (id) => id % 2 === 0);
    expect(acc.top(10)).toEqual([
      { id: 2, score: 1 },
      { id: 4, score: 1 },
    ]);
  });

  it('grows past its first sizes: more ids than its scratch held, and ids far apart', () => {
    const acc = new Accumulator();
    const many = Uint32Array.from({ length: 20_000 }, (_, i) => i * 7 + 1);
    acc.add(many, 1);
    acc.add(Uint32Array.of(5_000_000, 4_000_000_000), 3);
    const all = acc.top(30_000);
    expect(all).toHaveLength(20_002);
    expect(all.slice(0, 3)).toEqual([
      { id: 5_000_000, score: 3 },
      { id: 4_000_000_000, score: 3 },
      { id: 1, score: 1 },
    ]);
  });

  it('sums ids on both sides of a span boundary (32,768 ids a span)', () => {
    const acc = new Accumulator();
    acc.add(Uint32Array.of(32_767, 32_768, 65_536), 1);
    acc.add(Uint32Array.of(0, 32_768, 65_535, 65_536), 2);
    expect(acc.top(10)).toEqual([
      { id: 32_768, score: 3 },
      { id: 65_536, score: 3 },
      { id: 0, score: 2 },
      { id: 65_535, score: 2 },
      { id: 32_767, score: 1 },
    ]);
  });

  it('gives each id the sum of its weights in the order the lists were added, to the bit', () => {
    // Floating-point sums depend on their order: a single pass over the lists in turn is the reference.
    let seed = 7; // mulberry32
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
    const lists = Array.from({ length: 12 }, () => {
      const ids = new Set<number>();
      for (let i = 0; i < 3_000; i++) ids.add(Math.floor(random() * 300_000));
      return { ids: Uint32Array.from([...ids].sort((a, b) => a - b)), weight: 0.1 + random() * 3 };
    });
    const expected = new Map<number, number>();
    for (const { ids, weight } of lists) for (const id of ids) expected.set(id, (expected.get(id) ?? 0) + weight);
    const acc = new Accumulator();
    for (const { ids, weight } of lists) acc.add(ids, weight);
    const got = acc.top(expected.size);
    expect(got).toHaveLength(expected.size);
    for (const { id, score } of got) expect(Object.is(score, expected.get(id))).toBe(true);
  });

  it('refuses a weight that is not positive', () => {
    const acc = new Accumulator();
    expect(() => acc.add([1], 0)).toThrow(/weight must be positive/);
    expect(() => acc.add([1], Number.NaN)).toThrow(/weight must be positive/);
  });

  it('keeps every id tied with the k-th best before cutting to the limit', () => {
    const acc = new Accumulator();
    acc.add(Uint32Array.of(10, 20, 30, 40), 1);
    acc.add(Uint32Array.of(40), 1);
    expect(acc.top(2)).toEqual([
      { id: 40, score: 2 },
      { id: 10, score: 1 },
    ]);
  });
});

describe('kthLargest', () => {
  it('finds the k-th largest value, duplicates included', () => {
    const values = [5, 1, 9, 3, 9, 7, 2];
    for (let k = 1; k <= values.length; k++) {
      const expected = [...values].sort((a, b) => b - a)[k - 1];
      expect(kthLargest(Float64Array.from(values), k)).toBe(expected);
    }
  });
});
