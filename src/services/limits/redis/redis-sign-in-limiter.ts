import type { Redis } from 'ioredis';
import { upstreamFailure } from '../../../errors/errors.js';
import {
  type FailureCount,
  type SignInLimiter,
  type Subject,
  WINDOW_MS,
  waitSeconds,
} from '../../accounts/sign-in-limiter.js';
import { limitsConnection, whenReady } from './redis-connection.js';

export interface RedisSignInLimiterOptions {
  url: string;
  prefix: string;
  timeoutMs: number;
  maxDelayMs: number;
  onError(err: unknown, what: string): void;
  now?: () => number;
}

/** One failure: the count grows, the last time is now, and the count lives a window past it. */
const FAIL = `
for i, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'n', 1)
  redis.call('HSET', key, 'last', ARGV[1])
  redis.call('PEXPIRE', key, ARGV[2])
end
return 0`;

interface SignInRedis extends Redis {
  gpSignInFail(keys: number, ...args: (string | number)[]): Promise<number>;
}

/**
 * Failed sign-ins counted in Redis, shared by every process of a deployment: a guesser spread
 * over processes is slowed down as one. While Redis cannot be reached, sign-ins fail with 1234
 * (retryable) rather than go uncounted.
 */
export class RedisSignInLimiter implements SignInLimiter {
  private readonly redis: SignInRedis;
  private readonly now: () => number;

  constructor(private readonly options: RedisSignInLimiterOptions) {
    this.now = options.now ?? Date.now;
    this.redis = limitsConnection(options.url, options.timeoutMs, (err) =>
      options.onError(err, 'redis connection'),
    ) as SignInRedis;
    this.redis.defineCommand('gpSignInFail', { lua: FAIL });
  }

  ready(ms: number): Promise<boolean> {
    return whenReady(this.redis, ms);
  }

  async retryAfter(subjects: readonly Subject[]): Promise<number> {
    const replies = await this.call('sign-in check', () =>
      Promise.all(subjects.map((s) => this.redis.hmget(this.key(s), 'n', 'last'))),
    );
    const counts = replies.map(([n, last]): FailureCount | undefined =>
      n == null || last == null ? undefined : { failures: Number(n), last: Number(last) },
    );
    return waitSeconds(subjects, counts, this.now(), this.options.maxDelayMs);
  }

  async fail(subjects: readonly Subject[]): Promise<void> {
    const keys = subjects.map((s) => this.key(s));
    await this.call('sign-in failure', () => this.redis.gpSignInFail(keys.length, ...keys, this.now(), WINDOW_MS));
  }

  async succeed(subjects: readonly Subject[]): Promise<void> {
    if (subjects.length === 0) return;
    await this.call('sign-in success', () => this.redis.del(...subjects.map((s) => this.key(s))));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private key(subject: Subject): string {
    return `${this.options.prefix}sign-in:${subject.key}`;
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      this.options.onError(err, what);
      throw upstreamFailure('Sign-in is unavailable: its limits could not be checked (Redis)', {
        cause: err,
        retryAfter: 1,
      });
    }
  }
}
