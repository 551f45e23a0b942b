import type { KeyLimits } from '../../config/schema.js';
import type { Store } from '../../stores/types.js';
import { HOUR, type Limiter, MINUTE, type Release } from './limiter.js';
import { tooManyConcurrent, tooManyPerMinute, windowExhausted } from './refusals.js';
import { type PendingUsage, storedWindow } from './stored-windows.js';

export interface KeyLimiterOptions {
  store: Store;
  /** Requests made but not yet in the store, which count towards usage windows too. */
  pending?: PendingUsage;
  defaults: KeyLimits;
  now?: () => number;
}

/**
 * The in-process limiter (the default). Concurrency and requests-per-minute are counted in this
 * process (with several processes each enforces its own share: use the Redis limiter there);
 * usage windows are counted from the stored usage records, so they hold across restarts.
 */
export class KeyLimiter implements Limiter {
  private readonly inFlight = new Map<string, number>();
  /** Start times of the requests of the last minute, per key, oldest first. */
  private readonly recent = new Map<string, number[]>();
  private readonly store: Store;
  private readonly pending: PendingUsage | undefined;
  private readonly defaults: KeyLimits;
  private readonly now: () => number;

  constructor(options: KeyLimiterOptions) {
    this.store = options.store;
    this.pending = options.pending;
    this.defaults = options.defaults;
    this.now = options.now ?? Date.now;
  }

  /** Admits a request or throws 1302/1303/1308; the returned function releases its concurrency slot. */
  async admit(keyId: string, own: KeyLimits | undefined): Promise<Release> {
    const limits = own ?? this.defaults;
    const now = this.now();
    if (limits.windows.length > 0) await this.checkWindows(keyId, limits, now);
    return this.take(keyId, limits, now);
  }

  /** The in-process counts: per minute, then concurrency; throws 1303/1302. */
  private take(keyId: string, limits: KeyLimits, now: number): Release {
    this.checkPerMinute(keyId, limits.requests_per_minute, now);
    const running = this.inFlight.get(keyId) ?? 0;
    if (limits.concurrent > 0 && running >= limits.concurrent) throw tooManyConcurrent(limits.concurrent, keyId);
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

  async close(): Promise<void> {}

  private checkPerMinute(keyId: string, perMinute: number, now: number): void {
    if (perMinute <= 0) return;
    const times = this.recent.get(keyId);
    if (!times) return;
    while (times.length > 0 && times[0]! <= now - MINUTE) times.shift();
    if (times.length === 0) this.recent.delete(keyId);
    if (times.length >= perMinute) throw tooManyPerMinute(perMinute, times[0]! + MINUTE - now, keyId);
  }

  private async checkWindows(keyId: string, limits: KeyLimits, now: number): Promise<void> {
    for (const window of limits.windows) {
      const span = window.hours * HOUR;
      const { count, oldest } = await storedWindow(this.store, this.pending, keyId, now - span);
      if (count < window.requests) continue;
      throw windowExhausted(window.requests, window.hours, (oldest ?? now) + span, now, keyId);
    }
  }
}
