/**
 * Console sign-in attempts, counted per subject (`ip:…`, `account:…`, `pair:…`). Past its free
 * failures a subject is slowed down, never locked out: each further attempt waits twice as long
 * after the last one as the one before (1 s, 2 s, 4 s, …) up to a ceiling, so a guesser gets a
 * handful of tries a minute while the account's holder can still sign in. A subject's count is
 * forgotten after `WINDOW_MS` without attempts.
 *
 * An attempt is counted before its password is hashed, in one atomic step with the check: a burst
 * of concurrent guesses cannot all pass the check before the first is counted. Past its free
 * failures a subject has at most one attempt in flight; a second is refused until the first ends.
 * The attempt then says how it ended: failed (the count stays), succeeded (the subjects it names
 * are cleared, the others forget this attempt), or abandoned (nothing was checked: every subject
 * forgets it).
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

/** What a subject's count holds: attempts in the window and when the last one began. */
export interface FailureCount {
  failures: number;
  last: number;
}

/** An attempt let through: counted already; its end is said once. */
export interface SignInAttempt {
  /** The count stays, and the subjects' back-off runs from now. */
  failed(): Promise<void>;
  /** Clears `clear` (the caller leaves out the address: one success cannot hide many guesses). */
  succeeded(clear: readonly Subject[]): Promise<void>;
  /** Nothing was checked (the hash could not run): the attempt is not held against anyone. */
  abandoned(): Promise<void>;
}

/** `wait` seconds before one of the subjects may try again, or the attempt, counted. */
export type AttemptOutcome = { wait: number; attempt?: undefined } | { wait: 0; attempt: SignInAttempt };

export interface SignInLimiter {
  begin(subjects: readonly Subject[]): Promise<AttemptOutcome>;
  close(): Promise<void>;
}

/** A subject's count is dropped after this long without an attempt. */
export const WINDOW_MS = 15 * 60_000;

/** How long an attempt in flight holds its subjects at most (its process may have died). */
export const IN_FLIGHT_MS = 30_000;

/** Milliseconds a subject with `count` must wait after its last attempt; 0 within its free failures. */
export function backoffMs(count: FailureCount | undefined, free: number, maxDelayMs: number): number {
  if (count === undefined || count.failures < free) return 0;
  const doublings = Math.min(30, count.failures - free);
  return Math.min(maxDelayMs, 1000 * 2 ** doublings);
}

/** At most this many subjects are remembered in process; the stalest go first. */
const MAX_SUBJECTS = 100_000;

interface Entry extends FailureCount {
  /** The attempt in flight past the free failures, and until when it holds the subject. */
  holder?: number | undefined;
  heldUntil?: number | undefined;
}

/** The count in this process: a guesser is slowed per process. */
export class MemorySignInLimiter implements SignInLimiter {
  private readonly counts = new Map<string, Entry>();
  private nextAttempt = 1;

  constructor(
    private readonly maxDelayMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async begin(subjects: readonly Subject[]): Promise<AttemptOutcome> {
    const now = this.now();
    let waitMs = 0;
    for (const s of subjects) {
      const entry = this.current(s.key, now);
      if (entry === undefined || entry.failures < s.free) continue;
      waitMs = Math.max(waitMs, entry.last + backoffMs(entry, s.free, this.maxDelayMs) - now);
      if (entry.holder !== undefined && (entry.heldUntil ?? 0) > now) waitMs = Math.max(waitMs, 1000);
    }
    if (waitMs > 0) return { wait: Math.ceil(waitMs / 1000) };
    const id = this.nextAttempt++;
    for (const s of subjects) {
      const entry = this.current(s.key, now);
      const failures = entry?.failures ?? 0;
      const held = failures >= s.free;
      // Re-inserted, so the map's order is that of the last attempt: the stalest come first.
      this.counts.delete(s.key);
      this.counts.set(s.key, {
        failures: failures + 1,
        last: now,
        holder: held ? id : undefined,
        heldUntil: held ? now + IN_FLIGHT_MS : undefined,
      });
    }
    for (const key of this.counts.keys()) {
      if (this.counts.size <= MAX_SUBJECTS) break;
      this.counts.delete(key);
    }
    return { wait: 0, attempt: this.attempt(id, subjects) };
  }

  async close(): Promise<void> {}

  private attempt(id: number, subjects: readonly Subject[]): SignInAttempt {
    let ended = false;
    const end = (forget: readonly Subject[], clear: readonly Subject[]) => {
      if (ended) return;
      ended = true;
      const now = this.now();
      for (const s of subjects) {
        const entry = this.counts.get(s.key);
        if (entry === undefined) continue;
        if (entry.holder === id) entry.holder = entry.heldUntil = undefined;
        // The back-off runs from the failure's answer: a slow hash does not use it up.
        if (forget.length === 0) entry.last = Math.max(entry.last, now);
        if (clear.some((c) => c.key === s.key)) this.counts.delete(s.key);
        else if (forget.some((f) => f.key === s.key)) entry.failures = Math.max(0, entry.failures - 1);
      }
    };
    return {
      failed: async () => end([], []),
      succeeded: async (clear) => end(subjects, clear),
      abandoned: async () => end(subjects, []),
    };
  }

  private current(key: string, now: number): Entry | undefined {
    const count = this.counts.get(key);
    if (count !== undefined && count.last <= now - WINDOW_MS) {
      this.counts.delete(key);
      return undefined;
    }
    return count;
  }
}
