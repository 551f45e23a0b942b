import { afterEach, describe, expect, it } from 'vitest';
import type { KeyLimits } from '../../../src/config/schema.js';
import { RedisLimiter } from '../../../src/services/limits/redis/redis-limiter.js';
import { FakeUsage, limits, refusal } from '../../contracts/limiter.contract.js';
import { freePort, OwnRedis } from '../../helpers/own-redis.js';
import { freshPrefix, REDIS_URL } from '../../helpers/redis.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const opened: RedisLimiter[] = [];
const servers: OwnRedis[] = [];

/** One limiter per simulated process; the same prefix makes them share counts. */
async function processLimiter(
  prefix: string,
  options: { leaseMs?: number; url?: string; defaults?: KeyLimits; connect?: boolean } = {},
) {
  const limiter = new RedisLimiter({
    url: options.url ?? REDIS_URL,
    prefix,
    leaseMs: options.leaseMs ?? 30_000,
    timeoutMs: 500,
    store: new FakeUsage().asStore(),
    defaults: options.defaults ?? limits({}),
    onError() {},
  });
  opened.push(limiter);
  if (options.connect !== false && !(await limiter.ready(5000))) throw new Error('Redis is not reachable');
  return limiter;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((l) => l.close()));
  await Promise.all(servers.splice(0).map((s) => s.kill()));
});

describe('RedisLimiter across processes', () => {
  it('concurrency and per-minute limits are exact over two limiters on one Redis', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await processLimiter(prefix), await processLimiter(prefix)];
    const conc = limits({ concurrent: 2 });
    await a.admit('k', conc);
    await b.admit('k', conc);
    expect((await refusal(a.admit('k', conc))).code).toBe(1302);
    expect((await refusal(b.admit('k', conc))).code).toBe(1302);

    const rpm = limits({ requests_per_minute: 10 });
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).admit('r', rpm).then((release) => release())),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
  });

  it('admissions count towards a usage window before their usage records are written', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await processLimiter(prefix), await processLimiter(prefix)];
    const own = limits({ windows: [{ requests: 3, hours: 1 }] });
    (await a.admit('k', own))();
    (await b.admit('k', own))();
    (await a.admit('k', own))();
    expect((await refusal(b.admit('k', own))).code).toBe(1308);
  });

  it('the slot of a process that died (no release, no heartbeat) frees itself after the lease', async () => {
    const prefix = freshPrefix();
    const dying = await processLimiter(prefix, { leaseMs: 600 });
    const other = await processLimiter(prefix, { leaseMs: 600 });
    const own = limits({ concurrent: 1 });
    await dying.admit('k', own);
    await dying.close(); // as kill -9 would: the lease is never released nor renewed
    expect((await refusal(other.admit('k', own))).code).toBe(1302);
    let admitted = false;
    for (let i = 0; i < 40 && !admitted; i++) {
      await sleep(100);
      admitted = await other.admit('k', own).then(
        () => true,
        () => false,
      );
    }
    expect(admitted).toBe(true);
  });

  it('a live request keeps its slot past the lease time: the heartbeat renews it', async () => {
    const prefix = freshPrefix();
    const holder = await processLimiter(prefix, { leaseMs: 300 });
    const other = await processLimiter(prefix, { leaseMs: 300 });
    const own = limits({ concurrent: 1 });
    const release = await holder.admit('k', own);
    await sleep(1000);
    expect((await refusal(other.admit('k', own))).code).toBe(1302);
    release();
    await sleep(50);
    await other.admit('k', own);
  });

  it('keys without limits never touch Redis: they pass even with Redis unreachable', async () => {
    const limiter = await processLimiter(freshPrefix(), { url: 'redis://127.0.0.1:1', connect: false });
    for (let i = 0; i < 5; i++) await expect(limiter.admit('k', limits({}))).resolves.toBeTypeOf('function');
  });

  it('Redis not up at start: 1234 until it is, then admissions pass without a restart', async () => {
    const redis = new OwnRedis(await freePort());
    servers.push(redis);
    const limiter = await processLimiter(freshPrefix(), { url: redis.url, connect: false });
    const own = limits({ concurrent: 3 });
    expect((await refusal(limiter.admit('k', own))).code).toBe(1234);
    await redis.start();
    let admitted = false;
    for (let i = 0; i < 50 && !admitted; i++) {
      admitted = await limiter.admit('k', own).then(
        () => true,
        () => false,
      );
      if (!admitted) await sleep(100);
    }
    expect(admitted).toBe(true);
  });

  it('Redis down: limited keys get 1234 at once (no hang); when it is back, admissions resume', async () => {
    const redis = await OwnRedis.start();
    servers.push(redis);
    const limiter = await processLimiter(freshPrefix(), { url: redis.url });
    const own = limits({ requests_per_minute: 100 });
    (await limiter.admit('k', own))();
    await redis.kill();
    const started = Date.now();
    const err = await refusal(limiter.admit('k', own));
    expect(err).toMatchObject({ code: 1234, status: 502, retryable: true });
    expect(err.message).toContain('Redis');
    expect(Date.now() - started).toBeLessThan(2000);
    await redis.start();
    let admitted = false;
    for (let i = 0; i < 50 && !admitted; i++) {
      admitted = await limiter.admit('k', own).then(
        () => true,
        () => false,
      );
      if (!admitted) await sleep(100);
    }
    expect(admitted).toBe(true);
  });
});
