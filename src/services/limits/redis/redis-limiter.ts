import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { KeyLimits } from '../../../config/schema.js';
import { upstreamFailure } from '../../../errors/errors.js';
import type { Store } from '../../../stores/types.js';
import { HOUR, type Limiter, noRelease, type Release, unlimited } from '../limiter.js';
import { tooManyConcurrent, tooManyPerMinute, windowExhausted } from '../refusals.js';
import { type PendingUsage, storedWindow } from '../stored-windows.js';
import { limitsConnection, whenReady } from './redis-connection.js';
import { ADMIT, RENEW } from './redis-scripts.js';

export interface RedisLimiterOptions {
  url: string;
  /** Prefix of every Redis key written (tests use a unique one each). */
  prefix: string;
  leaseMs: number;
  /** Longest wait for Redis per admission. */
  timeoutMs: number;
  store: Store;
  pending?: PendingUsage;
  defaults: KeyLimits;
  onError(err: unknown, what: string): void;
}

type AdmitReply = [number, number?, number?, number?];

interface LimiterRedis extends Redis {
  gpAdmit(keys: number, ...args: (string | number)[]): Promise<AdmitReply>;
  gpRenew(keys: number, ...args: (string | number)[]): Promise<number>;
}

/**
 * Limits counted in Redis, exact across every process that shares it. A concurrency slot is a
 * lease with an expiry that this process renews while the request runs, so the slot of a process
 * that died frees itself after `leaseMs`. While Redis cannot be reached, limited keys are refused
 * with 1234 (retryable) rather than let through uncounted; keys without limits never touch Redis.
 * ioredis reconnects by itself, and admissions succeed again as soon as it has.
 */
export class RedisLimiter implements Limiter {
  private readonly redis: LimiterRedis;
  /** Leases held by requests of this process: Redis key of the key's leases → members. */
  private readonly leases = new Map<string, Set<string>>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly processId = randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(private readonly options: RedisLimiterOptions) {
    this.redis = limitsConnection(options.url, options.timeoutMs, (err) =>
      options.onError(err, 'redis connection'),
    ) as LimiterRedis;
    this.redis.defineCommand('gpAdmit', { lua: ADMIT });
    this.redis.defineCommand('gpRenew', { lua: RENEW });
    this.heartbeat = setInterval(() => void this.renew(), Math.max(100, Math.floor(options.leaseMs / 3)));
    this.heartbeat.unref();
  }

  /** Resolves once connected, or after `ms` (then admissions fail with 1234 until Redis is up). */
  ready(ms: number): Promise<boolean> {
    return whenReady(this.redis, ms);
  }

  backend(): { name: string; up: boolean } {
    return { name: 'redis', up: this.redis.status === 'ready' };
  }

  async admit(keyId: string, own: KeyLimits | undefined): Promise<Release> {
    const limits = own ?? this.options.defaults;
    if (unlimited(limits)) return noRelease;
    const base = `${this.options.prefix}{${keyId}}`;
    const keys = [`${base}:leases`, `${base}:minute`];
    const args: (string | number)[] = [];
    for (const w of limits.windows) {
      const span = Math.round(w.hours * HOUR);
      keys.push(`${base}:window:${span}`);
      const floor = await storedWindow(this.options.store, this.options.pending, keyId, Date.now() - span);
      args.push(w.requests, span, floor.count, floor.oldest ?? -1);
    }
    const member = `${this.processId}:${++this.sequence}`;
    let reply: AdmitReply;
    try {
      reply = await this.redis.gpAdmit(
        keys.length,
        ...keys,
        member,
        limits.concurrent,
        this.options.leaseMs,
        limits.requests_per_minute,
        ...args,
      );
    } catch (err) {
      this.options.onError(err, 'limiter admission');
      throw upstreamFailure('Limits could not be checked: the limiter backend (Redis) is unavailable', {
        cause: err,
        retryAfter: 1,
      });
    }
    const [code, a = 0, b = 0, c = 0] = reply.map(Number) as [number, number?, number?, number?];
    if (code === 1302) throw tooManyConcurrent(limits.concurrent, keyId);
    if (code === 1303) throw tooManyPerMinute(limits.requests_per_minute, a, keyId);
    if (code === 1308) {
      const w = limits.windows[a - 1]!;
      throw windowExhausted(w.requests, w.hours, b, c, keyId);
    }
    if (limits.concurrent <= 0) return noRelease;
    return this.hold(keys[0]!, member);
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.redis.disconnect();
  }

  private hold(leaseKey: string, member: string): Release {
    const held = this.leases.get(leaseKey) ?? new Set<string>();
    held.add(member);
    this.leases.set(leaseKey, held);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held.delete(member);
      if (held.size === 0) this.leases.delete(leaseKey);
      // If this fails the lease expires by itself within leaseMs.
      this.redis.zrem(leaseKey, member).catch((err) => this.options.onError(err, 'lease release'));
    };
  }

  private async renew(): Promise<void> {
    for (const [leaseKey, members] of this.leases) {
      if (members.size === 0) continue;
      try {
        await this.redis.gpRenew(1, leaseKey, this.options.leaseMs, ...members);
      } catch (err) {
        this.options.onError(err, 'lease renewal');
        return;
      }
    }
  }
}
