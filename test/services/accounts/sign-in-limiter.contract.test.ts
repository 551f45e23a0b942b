import { describe, expect, it } from 'vitest';
import { MemorySignInLimiter } from '../../../src/services/accounts/sign-in-limiter.js';
import { RedisSignInLimiter } from '../../../src/services/limits/redis/redis-sign-in-limiter.js';
import { runSignInLimiterContract } from '../../contracts/sign-in-limiter.contract.js';
import { freshPrefix, REDIS_URL } from '../../helpers/redis.js';

runSignInLimiterContract('in process', async (maxDelayMs) => {
  let now = 1_000_000;
  const limiter = new MemorySignInLimiter(maxDelayMs, () => now);
  const advance = (ms: number) => {
    now += ms;
  };
  return { limiter, advance, close: () => limiter.close() };
});

async function redisLimiter(prefix: string, clock: { now: number }, maxDelayMs = 10_000) {
  const limiter = new RedisSignInLimiter({
    url: REDIS_URL,
    prefix,
    timeoutMs: 2000,
    maxDelayMs,
    now: () => clock.now,
    onError(err) {
      throw err;
    },
  });
  if (!(await limiter.ready(5000))) throw new Error(`Redis is not reachable at ${REDIS_URL}`);
  return limiter;
}

runSignInLimiterContract('redis', async (maxDelayMs) => {
  const clock = { now: Date.now() };
  const limiter = await redisLimiter(freshPrefix(), clock, maxDelayMs);
  const advance = (ms: number) => {
    clock.now += ms;
  };
  return { limiter, advance, close: () => limiter.close() };
});

describe('sign-in limits in Redis', () => {
  it('are shared by every process on the same Redis', async () => {
    const prefix = freshPrefix();
    const clock = { now: Date.now() };
    const one = await redisLimiter(prefix, clock);
    const two = await redisLimiter(prefix, clock);
    try {
      const s = [{ key: 'account:shared@example.test', free: 1 }];
      await (await one.begin(s)).attempt!.failed();
      expect((await two.begin(s)).wait).toBe(1);
      clock.now += 1000;
      await (await two.begin(s)).attempt!.failed();
      expect((await one.begin(s)).wait).toBe(2);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('fail with 1234 while Redis cannot be reached, rather than count nothing', async () => {
    const limiter = new RedisSignInLimiter({
      url: 'redis://127.0.0.1:1',
      prefix: freshPrefix(),
      timeoutMs: 200,
      maxDelayMs: 1000,
      onError() {},
    });
    try {
      await expect(limiter.begin([{ key: 'ip:1.1.1.1', free: 1 }])).rejects.toMatchObject({ code: 1234 });
    } finally {
      await limiter.close();
    }
  });
});
