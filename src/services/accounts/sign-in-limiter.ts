const WINDOW_MS = 15 * 60_000;

/** A subject of the count (`ip:…`, `email:…`) and the failures it is allowed in the window. */
export interface Subject {
  key: string;
  allowed: number;
}

/**
 * Counts failed sign-ins per client address and per account, in memory: a guesser is slowed per
 * process, which with scrypt's cost per attempt is what makes password guessing impractical.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Seconds until one of `subjects` may try again, or 0 when all may try now. */
  retryAfter(subjects: Subject[]): number {
    const now = this.now();
    let wait = 0;
    for (const { key, allowed } of subjects) {
      const times = this.recent(key, now);
      if (times.length >= allowed) wait = Math.max(wait, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  fail(subjects: Subject[]): void {
    const now = this.now();
    for (const { key } of subjects) this.failures.set(key, [...this.recent(key, now), now]);
    // Bounded: a flood of distinct addresses cannot grow the map past a size worth sweeping.
    if (this.failures.size > 10_000) for (const s of this.failures.keys()) this.recent(s, now);
  }

  /** A success clears the account's count, not the address's: one good password cannot hide many guesses. */
  succeed(subjects: Subject[]): void {
    for (const { key } of subjects) if (!key.startsWith('ip:')) this.failures.delete(key);
  }

  private recent(subject: string, now: number): number[] {
    const times = (this.failures.get(subject) ?? []).filter((t) => t > now - WINDOW_MS);
    if (times.length) this.failures.set(subject, times);
    else this.failures.delete(subject);
    return times;
  }
}
