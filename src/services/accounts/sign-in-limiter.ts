const WINDOW_MS = 15 * 60_000;

/**
 * Counts failed sign-ins per client address and per account, in memory: a guesser is slowed per
 * process, which with scrypt's cost per attempt is what makes password guessing impractical.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly allowed: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until one of `subjects` may try again, or 0 when all may try now. */
  retryAfter(subjects: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const subject of subjects) {
      const times = this.recent(subject, now);
      if (times.length >= this.allowed) wait = Math.max(wait, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  fail(subjects: string[]): void {
    const now = this.now();
    for (const subject of subjects) this.failures.set(subject, [...this.recent(subject, now), now]);
    // Bounded: a flood of distinct addresses cannot grow the map past a size worth sweeping.
    if (this.failures.size > 10_000) for (const s of this.failures.keys()) this.recent(s, now);
  }

  succeed(subjects: string[]): void {
    for (const subject of subjects) this.failures.delete(subject);
  }

  private recent(subject: string, now: number): number[] {
    const times = (this.failures.get(subject) ?? []).filter((t) => t > now - WINDOW_MS);
    if (times.length) this.failures.set(subject, times);
    else this.failures.delete(subject);
    return times;
  }
}
