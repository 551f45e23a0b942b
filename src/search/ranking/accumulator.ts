/** Ids per span: 32,768 scores are 256 KB, which stay in a core's L2 cache while a span is summed. */
const SPAN_BITS = 15;
const SPAN = 1 << SPAN_BITS;

type Allowed = ((id: number) => boolean) | undefined;

/**
 * Partial scores by document id for one query. The lists come as sorted id blocks with a weight
 * each (add()), and top() sums them span by span: every list's ids within 32,768 of each other,
 * scattered into a dense array of that size, then copied out and cleared. A posting is one write
 * to a cache-resident array. Scattered over one array as long as the index has documents (8 MB at
 * 1M), the ~36,000 postings of a query cost two to three times as much, most of it cache and TLB
 * misses, and that array grew with the index.
 *
 * Within a span the lists are visited in the order they were added, so each id's weights are
 * summed in that order, as a single pass over the lists would: the scores are the same to the bit.
 *
 * One instance serves one query at a time: add() the lists, then top() in the same synchronous
 * run, which reads and clears it.
 */
export class Accumulator {
  #lists: ArrayLike<number>[] = [];
  #weights: number[] = [];
  #filters: Allowed[] = [];
  readonly #scores = new Float64Array(SPAN);
  readonly #touched = new Uint32Array(SPAN);
  /** Scratch for top(): the summed ids and scores, span after span. */
  #ids = new Uint32Array(1 << 12);
  #values = new Float64Array(1 << 12);

  /**
   * One list of ids in ascending order (a posting block), each to gain `weight` unless `allowed`
   * says no. Weights are positive (BM25's idf is): a score of 0 marks an id not yet touched.
   */
  add(ids: ArrayLike<number>, weight: number, allowed?: (id: number) => boolean): void {
    if (!(weight > 0)) throw new RangeError(`weight must be positive, got ${weight}`);
    if (ids.length === 0) return;
    this.#lists.push(ids);
    this.#weights.push(weight);
    this.#filters.push(allowed);
  }

  /** The `limit` best ids with their scores, best first (ties by id); clears the accumulator. */
  top(limit: number): { id: number; score: number }[] {
    const lists = this.#lists;
    const weights = this.#weights;
    const filters = this.#filters;
    this.#lists = [];
    this.#weights = [];
    this.#filters = [];
    const count = this.#sum(lists, weights, filters);
    const ids = this.#ids;
    const values = this.#values;
    let threshold = -Infinity;
    if (count > limit) threshold = kthLargest(values.slice(0, count), limit);
    const out: { id: number; score: number }[] = [];
    for (let i = 0; i < count; i++) {
      const score = values[i]!;
      if (score >= threshold) out.push({ id: ids[i]!, score });
    }
    out.sort((a, b) => b.score - a.score || a.id - b.id);
    return out.length > limit ? out.slice(0, limit) : out;
  }

  /** Sums the lists into #ids/#values, span by span; the number of distinct ids. */
  #sum(lists: ArrayLike<number>[], weights: number[], filters: Allowed[]): number {
    let total = 0;
    let next = Infinity;
    for (const list of lists) {
      total += list.length;
      if (list[0]! < next) next = list[0]!;
    }
    // At most every posting is a new id: room for all of them before the loops.
    if (total > this.#ids.length) {
      let size = this.#ids.length;
      while (size < total) size *= 2;
      this.#ids = new Uint32Array(size);
      this.#values = new Float64Array(size);
    }
    const ids = this.#ids;
    const values = this.#values;
    const scores = this.#scores;
    const touched = this.#touched;
    const at = new Uint32Array(lists.length);
    let count = 0;
    // Each round sums the span holding the smallest id not yet summed: spans without one are skipped.
    while (next !== Infinity) {
      const base = next - (next % SPAN);
      const end = base + SPAN;
      next = Infinity;
      let local = 0;
      for (let k = 0; k < lists.length; k++) {
        const list = lists[k]!;
        const weight = weights[k]!;
        const allowed = filters[k];
        let i = at[k]!;
        for (; i < list.length; i++) {
          const id = list[i]!;
          if (id >= end) {
            if (id < next) next = id;
            break;
          }
          if (allowed !== undefined && !allowed(id)) continue;
          const slot = id - base;
          const score = scores[slot]!;
          if (score === 0) touched[local++] = slot;
          scores[slot] = score + weight;
        }
        at[k] = i;
      }
      for (let t = 0; t < local; t++) {
        const slot = touched[t]!;
        ids[count] = base + slot;
        values[count++] = scores[slot]!;
        scores[slot] = 0;
      }
    }
    return count;
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
