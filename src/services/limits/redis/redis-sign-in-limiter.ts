import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { upstreamFailure } from '../../../errors/errors.js';
import {
  type AttemptOutcome,
  IN_FLIGHT_MS,
  type SignInAttempt,
  type SignInLimiter,
  type Subject,
  WINDOW_MS,
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

/**
 * One attempt, checked and counted in one step: the milliseconds to wait when a subject past its
 * free failures is within its back-off or has an attempt in flight; else every count grows, the
 * last time is now, a subject past its free failures is held by this attempt, and 0.
 * KEYS: the subjects; ARGV: now, window, ceiling, hold, attempt id, then each subject's free failures.
 */
const BEGIN = `
local now = tonumber(ARGV[1])
local ceiling = tonumber(ARGV[3])
local wait = 0
local counts = {}
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 'n', 'last', 'holder', 'held')
  local n = tonumber(v[1]) or 0
  local free = tonumber(ARGV[5 + i])
  counts[i] = n
  if n >= free then
    local w = (tonumber(v[2]) or 0) + math.min(ceiling, 1000 * 2 ^ math.min(30, n - free)) - now
    if w > wait then wait = w end
    if v[3] and (tonumber(v[4]) or 0) > now and wait < 1000 then wait = 1000 end
  end
end
if wait > 0 then return math.ceil(wait) end
for i, key in ipairs(KEYS) do
  redis.call('HINCRBY', key, 'n', 1)
  redis.call('HSET', key, 'last', ARGV[1])
  if counts[i] >= tonumber(ARGV[5 + i]) then
    redis.call('HSET', key, 'holder', ARGV[5], 'held', now + tonumber(ARGV[4]))
  end
  redis.call('PEXPIRE', key, ARGV[2])
end
return 0`;

/**
 * An attempt's end: per subject `keep` (a failure: the back-off runs from now), `forget` (the
 * attempt is not held against it) or `clear`; its hold is released. KEYS: the subjects; ARGV:
 * attempt id, now, then each subject's mode.
 */
const END = `
for i, key in ipairs(KEYS) do
  local mode = ARGV[2 + i]
  if mode == 'clear' then
    redis.call('DEL', key)
  elseif redis.call('EXISTS', key) == 1 then
    if redis.call('HGET', key, 'holder') == ARGV[1] then redis.call('HDEL', key, 'holder', 'held') end
    if mode == 'keep' and (tonumber(redis.call('HGET', key, 'last')) or 0) < tonumber(ARGV[2]) then
      redis.call('HSET', key, 'last', ARGV[2])
    end
    if mode == 'forget' and (tonumber(redis.call('HGET', key, 'n')) or 0) > 0 then
      redis.call('HINCRBY', key, 'n', -1)
    end
  end
end
return 0`;

interface SignInRedis extends Redis {
  gpSignInBegin(keys: number, ...args: (string | number)[]): Promise<number>;
  gpSignInEnd(keys: number, ...args: (string | number)[]): Promise<number>;
}

/**
 * Sign-in attempts counted in Redis, shared by every process of a deployment: a guesser spread
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
    this.redis.defineCommand('gpSignInBegin', { lua: BEGIN });
    this.redis.defineCommand('gpSignInEnd', { lua: END });
  }

  ready(ms: number): Promise<boolean> {
    return whenReady(this.redis, ms);
  }

  async begin(subjects: readonly Subject[]): Promise<AttemptOutcome> {
    const keys = subjects.map((s) => this.key(s));
    const id = randomUUID();
    const waitMs = await this.call('sign-in check', () =>
      this.redis.gpSignInBegin(
        keys.length,
        ...keys,
        this.now(),
        WINDOW_MS,
        this.options.maxDelayMs,
        IN_FLIGHT_MS,
        id,
        ...subjects.map((s) => s.free),
      ),
    );
    if (waitMs > 0) return { wait: Math.ceil(waitMs / 1000) };
    return { wait: 0, attempt: this.attempt(id, subjects) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private attempt(id: string, subjects: readonly Subject[]): SignInAttempt {
    let ended = false;
    const end = async (mode: (s: Subject) => 'keep' | 'forget' | 'clear') => {
      if (ended) return;
      ended = true;
      const keys = subjects.map((s) => this.key(s));
      await this.call('sign-in end', () =>
        this.redis.gpSignInEnd(keys.length, ...keys, id, this.now(), ...subjects.map(mode)),
      );
    };
    return {
      failed: () => end(() => 'keep'),
      succeeded: (clear) => end((s) => (clear.some((c) => c.key === s.key) ? 'clear' : 'forget')),
      abandoned: () => end(() => 'forget'),
    };
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
