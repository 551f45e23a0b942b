import { describe, expect, it } from 'vitest';
import { Accumulator, kthLargest } from '../../src/search/ranking/accumulator.js';

describe('Accumulator', () => {
  it('sums the weights of each id over lists and returns the best, ties by id', () => {
    const acc = new Accumulator();
    acc.add(Uint32Array.of(1, 5, 9), 2);
    acc.add(Uint32Array.of(5, 7), 1.5);
    acc.add([9], 1.5);
    expect(acc.size).toBe(4);
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
    expect(acc.size).toBe(0);
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

  it('grows past its first sizes: ids beyond them, and more ids than its touched list held', () => {
    const acc = new Accumulator();
    const many = Uint32Array.from({ length: 20_000 }, (_, i) => i * 7 + 1);
    acc.add(many, 1);
    acc.add(Uint32Array.of(5_000_000), 3);
    expect(acc.size).toBe(20_001);
    const best = acc.top(2);
    expect(best).toEqual([
      { id: 5_000_000, score: 3 },
      { id: 1, score: 1 },
    ]);
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
