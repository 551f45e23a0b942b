/**
 * Partial scores by document id for one query: a dense array indexed by id (rowids are small and
 * dense), so adding a posting is one array write, and the ids touched, so that reading the best
 * and clearing cost what was touched, not the index's size. One instance serves one query at a
 * time: `top()` reads and clears it in the same synchronous call.
 *
 * The loop over postings is the hottest of a query (36,000 postings at 1M documents): it keeps
 * its arrays in locals, reads a score once, and notes touched ids in a typed array sized before
 * the loop. With a private field and `Array.push` per new id it took four to five times as long.
 */
export class Accumulator {
  #scores: Float64Array = new Float64Array(1 << 16);
  #touched: Uint32Array = new Uint32Array(1 << 12);
  #count = 0;
  /** Scratch for top(): the touched scores in the order touched. */
  #values: Float64Array = new Float64Array(0);

  add(ids: ArrayLike<number>, weight: number, allowed?: (id: number) => boolean): void {
    // At most every id is new: room for all of them before the loop.
    if (this.#count + ids.length > this.#touched.length) this.#growTouched(this.#count + ids.length);
    const touched = this.#touched;
    let scores = this.#scores;
    let count = this.#count;
    if (allowed === undefined) {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (id >= scores.length) scores = this.#grow(id);
        const score = scores[id]!;
        if (score === 0) touched[count++] = id;
        scores[id] = score + weight;
      }
    } else {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i]!;
        if (!allowed(id)) continue;
        if (id >= scores.length) scores = this.#grow(id);
        const score = scores[id]!;
        if (score === 0) touched[count++] = id;
        scores[id] = score + weight;
      }
    }
    this.#count = count;
  }

  get size(): number {
    return this.#count;
  }

  /** The `limit` best ids with their scores, best first (ties by id); clears the accumulator. */
  top(limit: number): { id: number; score: number }[] {
    const touched = this.#touched;
    const scores = this.#scores;
    const count = this.#count;
    // The scores lie scattered over an array as long as the index has documents: they are visited
    // once, copied out in the order touched and cleared while their cache line is in, and the rest
    // reads the copy in order (two more scattered passes, to pick and to clear, cost as much again).
    if (this.#values.length < count) this.#values = new Float64Array(this.#touched.length);
    const values = this.#values;
    for (let i = 0; i < count; i++) {
      const id = touched[i]!;
      values[i] = scores[id]!;
      scores[id] = 0;
    }
    this.#count = 0;
    let threshold = -Infinity;
    if (count > limit) threshold = kthLargest(values.slice(0, count), limit);
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < count; i++) {
      const score = values[i]!;
      if (score >= threshold) out.push({ id: touched[i]!, score });
    }
    out.sort((a, b) => b.score - a.score || a.id - b.id);
    return out.length > limit ? out.slice(0, limit) : out;
  }

  #grow(id: number): Float64Array {
    let size = this.#scores.length;
    while (size <= id) size *= 2;
    const next = new Float64Array(size);
    next.set(this.#scores);
    this.#scores = next;
    return next;
  }

  #growTouched(needed: number): void {
    let size = this.#touched.length;
    while (size < needed) size *= 2;
    const next = new Uint32Array(size);
    next.set(this.#touched.subarray(0, this.#count));
    this.#touched = next;
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
