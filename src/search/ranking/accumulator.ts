/**
 * Partial scores by document id for one query: a dense array indexed by id (rowids are small and
 * dense), so adding a posting is one array write, and the ids touched, so that reading the best
 * and clearing cost what was touched, not the index's size. One instance serves one query at a
 * time: `top()` reads and clears it in the same synchronous call.
 */
export class Accumulator {
  #scores: Float64Array = new Float64Array(1 << 16);
  #touched: number[] = [];

  add(ids: ArrayLike<number>, weight: number, allowed?: (id: number) => boolean): void {
    let scores = this.#scores;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      if (allowed && !allowed(id)) continue;
      if (id >= scores.length) scores = this.#grow(id);
      if (scores[id] === 0) this.#touched.push(id);
      scores[id] = scores[id]! + weight;
    }
  }

  get size(): number {
    return this.#touched.length;
  }

  /** The `limit` best ids with their scores, best first (ties by id); clears the accumulator. */
  top(limit: number): { id: number; score: number }[] {
    const touched = this.#touched;
    const scores = this.#scores;
    let chosen = touched;
    if (touched.length > limit) {
      const values = new Float64Array(touched.length);
      for (let i = 0; i < touched.length; i++) values[i] = scores[touched[i]!]!;
      const threshold = kthLargest(values, limit);
      chosen = touched.filter((id) => scores[id]! >= threshold);
    }
    const out = chosen.map((id) => ({ id, score: scores[id]! }));
    out.sort((a, b) => b.score - a.score || a.id - b.id);
    for (const id of touched) scores[id] = 0;
    this.#touched = [];
    return out.slice(0, limit);
  }

  #grow(id: number): Float64Array {
    let size = this.#scores.length;
    while (size <= id) size *= 2;
    const next = new Float64Array(size);
    next.set(this.#scores);
    this.#scores = next;
    return next;
  }
}

/** The k-th largest value (1-based), by quickselect; reorders `values`. */
export function kthLargest(values: Float64Array, k: number): number {
  let lo = 0;
  let hi = values.length - 1;
  const target = k - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (values[i]! > pivot) i++;
      while (values[j]! < pivot) j--;
      if (i <= j) {
        const t = values[i]!;
        values[i] = values[j]!;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return values[target]!;
}
