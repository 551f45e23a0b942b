import type { KeyLimits } from '../../config/schema.js';
import { ApiError } from '../../errors/api-error.js';
import type { Store, UsageWindow } from '../../stores/types.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;

export interface KeyLimiterOptions {
  store: Store;
  /** Requests made but not yet in the store, which count towards usage windows too. */
  pending?: (keyId: string, since: number) => UsageWindow;
  defaults: KeyLimits;
  now?: () => number;
}

/**
 * Per-key limits. Concurrency and requests-per-minute are counted in this process (with several
 * processes each enforces its own share); usage windows are counted from the stored usage
 * records, so they hold across processes and restarts.
 */
export class KeyLimiter {
  private readonly inFlight = new Map<string, number>();
  /** Start times of the requests of the last minute, per key, oldest first. */
  private readonly recent = new Map<string, number[]>();
  private readonly store: Store;
  private readonly pending: KeyLimiterOptions['pending'];
  private readonly defaults: KeyLimits;
  private readonly now: () => number;

  constructor(options: KeyLimiterOptions) {
    this.store = options.store;
    this.pending = options.pending;
    this.defaults = options.defaults;
    this.now = options.now ?? Date.now;
  }

  /** Admits a request or throws 1302/1303/1308; the returned function releases its concurrency slot. */
  async admit(keyId: string, own: KeyLimits | undefined): Promise<() => void> {
    const limits = own ?? this.defaults;
    const now = this.now();
    await this.checkWindows(keyId, limits, now);
    this.checkPerMinute(keyId, limits.requests_per_minute, now);
    const running = this.inFlight.get(keyId) ?? 0;
    if (limits.concurrent > 0 && running >= limits.concurrent) {
      throw new ApiError(1302, `Too many concurrent requests: this key allows ${limits.concurrent} at a time`, {
        retryAfter: 1,
      });
    }
    this.inFlight.set(keyId, running + 1);
    if (limits.requests_per_minute > 0) this.recent.get(keyId)?.push(now) ?? this.recent.set(keyId, [now]);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(keyId) ?? 1) - 1;
      if (left > 0) this.inFlight.set(keyId, left);
      else this.inFlight.delete(keyId);
    };
  }

  private checkPerMinute(keyId: string, perMinute: number, now: number): void {
    if (perMinute <= 0) return;
    const times = this.recent.get(keyId);
    if (!times) return;
    while (times.length > 0 && times[0]! <= now - MINUTE) times.shift();
    if (times.length === 0) this.recent.delete(keyId);
    if (times.length >= perMinute) {
      throw new ApiError(1303, `Too many requests: this key allows ${perMinute} per minute`, {
        retryAfter: (times[0]! + MINUTE - now) / 1000,
      });
    }
  }

  private async checkWindows(keyId: string, limits: KeyLimits, now: number): Promise<void> {
    for (const window of limits.windows) {
      const span = window.hours * HOUR;
      const stored = await this.store.usageWindow(keyId, now - span);
      const waiting = this.pending?.(keyId, now - span) ?? { count: 0, oldest: undefined };
      const count = stored.count + waiting.count;
      const oldest = Math.min(stored.oldest ?? Number.POSITIVE_INFINITY, waiting.oldest ?? Number.POSITIVE_INFINITY);
      if (count < window.requests) continue;
      const resetsAt = (Number.isFinite(oldest) ? oldest : now) + span;
      throw new ApiError(
        1308,
        `Usage limit reached: ${window.requests} requests per ${window.hours} hours; it resets at ${new Date(resetsAt).toISOString()}`,
        { retryAfter: (resetsAt - now) / 1000 },
      );
    }
  }
}
