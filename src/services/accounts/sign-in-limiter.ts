/**
 * Failed console sign-ins, counted per subject (`ip:…`, `account:…`, `pair:…`). Past its free
 * failures a subject is slowed down, never locked out: each further attempt waits twice as long
 * after the last failure as the one before (1 s, 2 s, 4 s, …) up to a ceiling, so a guesser gets
 * a handful of tries a minute while the account's holder can still sign in. A subject's count is
 * forgotten after `WINDOW_MS` without failures; a success clears the account's counts.
 *
 * Two implementations, one contract suite (test/contracts/sign-in-limiter.contract.ts): in
 * process (below), and in Redis when `redis.url` is set, so that several processes share the
 * counts (src/services/limits/redis/redis-sign-in-limiter.ts).
 */

/** A subject of the count and the failures it is allowed before attempts slow down. */
export interface Subject {
  key: string;
  free: number;
}

/** What a subject's count holds: failures in the window and when the last one was. */
export interface FailureCount {
  failures: number;
  last: number;
}

export interface SignInLimiter {
  /** Seconds until every one of `subjects` may try again; 0: now. */
  retryAfter(subjects: readonly Subject[]): Promise<number>;
  fail(subjects: readonly Subject[]): Promise<void>;
  /** Clears the subjects' counts (the caller leaves out the address: one success cannot hide many guesses). */
  succeed(subjects: readonly Subject[]): Promise<void>;
  close(): Promise<void>;
}

/** A subject's count is dropped after this long without a failure. */
export const WINDOW_MS = 15 * 60_000;

/** Milliseconds a subject with `count` must wait after its last failure; 0 within its free failures. */
export function backoffMs(count: FailureCount | undefined, free: number, maxDelayMs: number): number {
  if (count === undefined || count.failures < free) return 0;
  const doublings = Math.min(30, count.failures - free);
  return Math.min(maxDelayMs, 1000 * 2 ** doublings);
}

/** Seconds until all subjects may try, from their counts (`undefined`: none). */
export function waitSeconds(
  subjects: readonly Subject[],
  counts: readonly (FailureCount | undefined)[],
  now: number,
  maxDelayMs: number,
): number {
  let wait = 0;
  subjects.forEach((s, i) => {
    const count = counts[i];
    const until = count === undefined ? 0 : count.last + backoffMs(count, s.free, maxDelayMs);
    wait = Math.max(wait, until - now);
  });
  return Math.ceil(Math.max(0, wait) / 1000);
}

/** At most this many subjects are remembered in process; the stalest go first. */
const MAX_SUBJECTS = 100_000;

/** The count in this process: a guesser is slowed per process. */
export class MemorySignInLimiter implements SignInLimiter {
  private readonly counts = new Map<string, FailureCount>();

  constructor(
    private readonly maxDelayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async retryAfter(subjects: readonly Subject[]): Promise<number> {
    const now = this.now();
    return waitSeconds(
      subjects,
      subjects.map((s) => this.current(s.key, now)),
      now,
      this.maxDelayMs,
    );
  }

  async fail(subjects: readonly Subject[]): Promise<void> {
    const now = this.now();
    for (const { key } of subjects) {
      const failures = (this.current(key, now)?.failures ?? 0) + 1;
      // Re-inserted, so the map's order is that of the last failure: the stalest come first.
      this.counts.delete(key);
      this.counts.set(key, { failures, last: now });
    }
    for (const key of this.counts.keys()) {
      if (this.counts.size <= MAX_SUBJECTS) break;
      this.counts.delete(key);
    }
  }

  async succeed(subjects: readonly Subject[]): Promise<void> {
    for (const { key } of subjects) this.counts.delete(key);
  }

  async close(): Promise<void> {}

  private current(key: string, now: number): FailureCount | undefined {
    const count = this.counts.get(key);
    if (count !== undefined && count.last <= now - WINDOW_MS) {
      this.counts.delete(key);
      return undefined;
    }
    return count;
  }
}
