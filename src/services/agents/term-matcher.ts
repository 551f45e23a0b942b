/**
 * Which of many terms occur in a text, in one pass over the text (Aho-Corasick): the work is linear
 * in the text and in the terms' total length, however many terms there are, where a search per
 * term costs terms × text. Terms and texts are compared as given (the caller normalises both).
 */
export class TermMatcher {
  /** Trie edges, keyed `state * 65536 + UTF-16 code unit`. */
  private readonly edges = new Map<number, number>();
  private readonly fail: number[] = [0];
  /** The nearest state on the failure chain (itself excluded) where some term ends; -1 for none. */
  private readonly dictLink: number[] = [-1];
  /** Terms ending exactly at each state. */
  private readonly ends: (number[] | undefined)[] = [undefined];

  constructor(terms: readonly string[]) {
    terms.forEach((term, index) => {
      let state = 0;
      for (let i = 0; i < term.length; i++) state = this.child(state, term.charCodeAt(i));
      const ends = this.ends[state];
      if (ends) ends.push(index);
      else this.ends[state] = [index];
    });
    this.link();
  }

  /** Indexes of the terms that occur in `text`. */
  find(text: string): Set<number> {
    const found = new Set<number>();
    // A state whose terms are reported once needs no second report, nor its dictionary chain.
    const seen = new Set<number>();
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      state = this.step(state, text.charCodeAt(i));
      for (let s = this.ends[state] ? state : this.dictLink[state]!; s > 0 && !seen.has(s); s = this.dictLink[s]!) {
        seen.add(s);
        for (const term of this.ends[s]!) found.add(term);
      }
    }
    return found;
  }

  private child(state: number, unit: number): number {
    const key = state * 65536 + unit;
    let next = this.edges.get(key);
    if (next === undefined) {
      next = this.fail.length;
      this.edges.set(key, next);
      this.fail.push(0);
      this.dictLink.push(-1);
      this.ends.push(undefined);
    }
    return next;
  }

  private step(state: number, unit: number): number {
    for (;;) {
      const next = this.edges.get(state * 65536 + unit);
      if (next !== undefined) return next;
      if (state === 0) return 0;
      state = this.fail[state]!;
    }
  }

  /** Failure and dictionary links, breadth first so each state's links are known before its children's. */
  private link(): void {
    const children = new Map<number, [number, number][]>();
    for (const [key, child] of this.edges) {
      const parent = Math.floor(key / 65536);
      const list = children.get(parent);
      if (list) list.push([key % 65536, child]);
      else children.set(parent, [[key % 65536, child]]);
    }
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const parent = queue[head]!;
      for (const [unit, child] of children.get(parent) ?? []) {
        const fallback = parent === 0 ? 0 : this.step(this.fail[parent]!, unit);
        this.fail[child] = fallback;
        this.dictLink[child] = this.ends[fallback] ? fallback : this.dictLink[fallback]!;
        queue.push(child);
      }
    }
  }
}
