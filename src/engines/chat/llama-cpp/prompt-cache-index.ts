import { createHash } from 'node:crypto';

/** A prompt state saved to a file: the tokens the sequence held and the file's size. */
export interface CachedPrompt {
  /** The file's name, from the fingerprint and the tokens. */
  readonly key: string;
  readonly tokens: readonly number[];
  readonly bytes: number;
}

export interface PromptCacheLimits {
  /** Bytes the saved states may hold together; 0 = no cache. */
  readonly budgetBytes: number;
  /** States kept at most: every lookup compares the prompt with each of them. */
  readonly maxEntries: number;
  /** Shorter prompts are not saved: evaluating them costs about what a restore does. */
  readonly minTokens: number;
}

export interface PromptMatch {
  readonly entry: CachedPrompt;
  /** Tokens the prompt shares with the entry, from the start. */
  readonly length: number;
}

interface Entry extends CachedPrompt {
  /** Clock of the last save or restore, for least-recently-used eviction. */
  used: number;
  /** Restores reading the file now: it is not evicted until they end. */
  pins: number;
}

export function commonPrefix(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * Which prompt states a deployment keeps, without the files: the key of a token prefix, the best
 * match of a prompt, what a new state evicts. The bytes of the states kept never exceed the budget
 * (a state that cannot fit once every unpinned one is gone is not kept), least recently used go
 * first, and a key covers the model and context it was made with (`fingerprint`), so that a state
 * is never matched against another model's prompt even if two deployments shared a folder.
 */
export class PromptCacheIndex {
  private readonly entries = new Map<string, Entry>();
  /** Keys being saved now: a second request with the same prompt does not save it again. */
  private readonly pending = new Set<string>();
  private clock = 0;
  private total = 0;
  /** Learnt from the last state saved: a prompt whose state would exceed the budget is not saved. */
  private bytesPerToken = 0;

  constructor(
    private readonly fingerprint: string,
    readonly limits: PromptCacheLimits,
  ) {
    for (const [name, value] of Object.entries(limits)) {
      if (!Number.isInteger(value) || value < 0) throw new Error(`prompt cache: ${name} must be an integer >= 0`);
    }
  }

  get enabled(): boolean {
    return this.limits.budgetBytes > 0 && this.limits.maxEntries > 0;
  }

  /** Bytes of the states kept. */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }

  keyOf(tokens: readonly number[]): string {
    const hash = createHash('sha256').update(this.fingerprint).update('\0');
    hash.update(Buffer.from(Uint32Array.from(tokens).buffer));
    return hash.digest('hex').slice(0, 40);
  }

  /**
   * The kept state that shares the longest prefix with `prompt` (ties: the smaller file).
   * `wholeOnly`: only states that are a prefix of the prompt entire, for models whose memory cannot
   * be cut back to a shorter prefix (sliding-window or recurrent).
   */
  best(prompt: readonly number[], wholeOnly = false): PromptMatch | undefined {
    let found: PromptMatch | undefined;
    for (const entry of this.entries.values()) {
      const length = commonPrefix(entry.tokens, prompt);
      if (length === 0 || (wholeOnly && length < entry.tokens.length)) continue;
      if (found === undefined || length > found.length || (length === found.length && entry.bytes < found.entry.bytes))
        found = { entry, length };
    }
    return found;
  }

  /** Holds a state for a restore: it is not evicted until `unpin`. */
  pin(entry: CachedPrompt): void {
    const kept = this.entries.get(entry.key);
    if (kept === undefined) return;
    kept.pins++;
    kept.used = ++this.clock;
  }

  unpin(entry: CachedPrompt): void {
    const kept = this.entries.get(entry.key);
    if (kept !== undefined && kept.pins > 0) kept.pins--;
  }

  /**
   * The key to save `tokens` under, or undefined when they are not worth a file: too short, a kept
   * state already holds them (it counts as used), the same is being saved, or the state would not
   * fit the budget. The caller then `admit`s or `cancel`s it.
   */
  reserve(tokens: readonly number[]): string | undefined {
    if (!this.enabled || tokens.length < Math.max(1, this.limits.minTokens)) return undefined;
    if (this.bytesPerToken * tokens.length > this.limits.budgetBytes) return undefined;
    for (const entry of this.entries.values()) {
      if (entry.tokens.length >= tokens.length && commonPrefix(entry.tokens, tokens) === tokens.length) {
        entry.used = ++this.clock;
        return undefined;
      }
    }
    const key = this.keyOf(tokens);
    if (this.pending.has(key)) return undefined;
    this.pending.add(key);
    return key;
  }

  cancel(key: string): void {
    this.pending.delete(key);
  }

  /**
   * A reserved state is on disk with `bytes`: it is kept, and the states that must go for it to fit
   * the budget, least recently used first, are not. Returns the keys whose files to delete (the new
   * key itself when it does not fit).
   */
  admit(key: string, tokens: readonly number[], bytes: number): string[] {
    this.pending.delete(key);
    if (tokens.length > 0) this.bytesPerToken = bytes / tokens.length;
    const gone: string[] = [];
    const lru = [...this.entries.values()].filter((e) => e.pins === 0).sort((a, b) => a.used - b.used);
    while (
      (this.total + bytes > this.limits.budgetBytes || this.entries.size + 1 > this.limits.maxEntries) &&
      lru.length > 0
    ) {
      gone.push(this.remove(lru.shift() as Entry));
    }
    if (this.total + bytes > this.limits.budgetBytes || this.entries.size + 1 > this.limits.maxEntries) {
      gone.push(key);
      return gone;
    }
    this.entries.set(key, { key, tokens: [...tokens], bytes, used: ++this.clock, pins: 0 });
    this.total += bytes;
    return gone;
  }

  /** Forgets a state whose file could not be read; returns its key. */
  drop(entry: CachedPrompt): string {
    const kept = this.entries.get(entry.key);
    return kept === undefined ? entry.key : this.remove(kept);
  }

  private remove(entry: Entry): string {
    this.entries.delete(entry.key);
    this.total -= entry.bytes;
    return entry.key;
  }
}
