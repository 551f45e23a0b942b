import { describe, expect, it } from 'vitest';
import type { KeyLimits } from '../../../src/config/schema.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { KeyLimiter } from '../../../src/services/limits/key-limiter.js';
import type { Store, UsageWindow } from '../../../src/stores/types.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

/** The one store method the limiter reads: request times per key, as usage records would give. */
class FakeUsage {
  readonly times = new Map<string, number[]>();
  add(keyId: string, at: number): void {
    this.times.set(keyId, [...(this.times.get(keyId) ?? []), at]);
  }
  asStore(): Store {
    const usageWindow = async (keyId: string, since: number): Promise<UsageWindow> => {
      const inWindow = (this.times.get(keyId) ?? []).filter((t) => t >= since);
      return { count: inWindow.length, oldest: inWindow.length ? Math.min(...inWindow) : undefined };
    };
    return { usageWindow } as Partial<Store> as Store;
  }
}

const limits = (own: Partial<KeyLimits>): KeyLimits => ({ concurrent: 0, requests_per_minute: 0, windows: [], ...own });

function setup(defaults: Partial<KeyLimits> = {}) {
  const clock = { now: T0 };
  const usage = new FakeUsage();
  const limiter = new KeyLimiter({ store: usage.asStore(), defaults: limits(defaults), now: () => clock.now });
  return { clock, usage, limiter };
}

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the limiter to refuse');
}

describe('KeyLimiter: concurrent requests (1302)', () => {
  it('admits up to the limit, refuses the next with 1302 and Retry-After, admits again after a release', async () => {
    const { limiter } = setup();
    const own = limits({ concurrent: 2 });
    const first = await limiter.admit('k', own);
    await limiter.admit('k', own);
    const err = await refusal(limiter.admit('k', own));
    expect(err.code).toBe(1302);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.retryAfter).toBeGreaterThan(0);
    expect(err.message).toContain('2');
    first();
    await expect(limiter.admit('k', own)).resolves.toBeTypeOf('function');
  });

  it('a release called twice frees one slot only', async () => {
    const { limiter } = setup();
    const own = limits({ concurrent: 2 });
    const a = await limiter.admit('k', own);
    await limiter.admit('k', own);
    a();
    a();
    await limiter.admit('k', own);
    expect((await refusal(limiter.admit('k', own))).code).toBe(1302);
  });

  it('counts per key', async () => {
    const { limiter } = setup();
    const own = limits({ concurrent: 1 });
    await limiter.admit('a', own);
    await expect(limiter.admit('b', own)).resolves.toBeTypeOf('function');
    expect((await refusal(limiter.admit('a', own))).code).toBe(1302);
  });

  it('0 means no limit', async () => {
    const { limiter, clock } = setup();
    const releases: unknown[] = [];
    // 100 at once and within one minute: neither the concurrency nor the minute refuses any.
    for (let i = 0; i < 100; i++) {
      releases.push(await limiter.admit('k', limits({})));
      clock.now += 100;
    }
    expect(releases).toHaveLength(100);
    expect(releases.every((release) => typeof release === 'function')).toBe(true);
  });

  it('uses the configured defaults for a key without limits of its own', async () => {
    const { limiter } = setup({ concurrent: 1 });
    await limiter.admit('k', undefined);
    expect((await refusal(limiter.admit('k', undefined))).code).toBe(1302);
    // A key's own limits replace the defaults.
    await expect(limiter.admit('k', limits({ concurrent: 5 }))).resolves.toBeTypeOf('function');
  });

  it('admissions refused for concurrency do not count against the minute', async () => {
    const { limiter } = setup();
    const own = limits({ concurrent: 1, requests_per_minute: 2 });
    const release = await limiter.admit('k', own);
    for (let i = 0; i < 5; i++) expect((await refusal(limiter.admit('k', own))).code).toBe(1302);
    release();
    await expect(limiter.admit('k', own)).resolves.toBeTypeOf('function');
  });
});

describe('KeyLimiter: requests per minute (1303)', () => {
  it('refuses the request over the limit with the seconds until the oldest leaves the minute', async () => {
    const { limiter, clock } = setup();
    const own = limits({ requests_per_minute: 3 });
    for (let i = 0; i < 3; i++) {
      (await limiter.admit('k', own))();
      clock.now += 10_000;
    }
    // Requests at T0, T0+10s, T0+20s; now T0+30s: the first leaves the window at T0+60s.
    const err = await refusal(limiter.admit('k', own));
    expect(err.code).toBe(1303);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(true);
    expect(err.retryAfter).toBe(30);
    expect(err.message).toContain('3 per minute');
  });

  it('admits again once the oldest request is a minute old, and refused requests do not count', async () => {
    const { limiter, clock } = setup();
    const own = limits({ requests_per_minute: 2 });
    (await limiter.admit('k', own))();
    clock.now += 1_000;
    (await limiter.admit('k', own))();
    for (let i = 0; i < 3; i++) expect((await refusal(limiter.admit('k', own))).code).toBe(1303);
    clock.now = T0 + MINUTE;
    (await limiter.admit('k', own))();
    expect((await refusal(limiter.admit('k', own))).code).toBe(1303);
    clock.now = T0 + MINUTE + 1_000;
    await limiter.admit('k', own);
  });

  it('counts per key', async () => {
    const { limiter } = setup();
    const own = limits({ requests_per_minute: 1 });
    await limiter.admit('a', own);
    await limiter.admit('b', own);
    expect((await refusal(limiter.admit('a', own))).code).toBe(1303);
  });
});

describe('KeyLimiter: usage windows (1308)', () => {
  it('refuses when the window is full, with the reset time (ISO) in the message', async () => {
    const { limiter, usage, clock } = setup();
    const own = limits({ windows: [{ requests: 2, hours: 5 }] });
    usage.add('k', T0 - 2 * HOUR);
    usage.add('k', T0 - HOUR);
    const err = await refusal(limiter.admit('k', own));
    expect(err.code).toBe(1308);
    expect(err.status).toBe(429);
    expect(err.retryable).toBe(false);
    const resetsAt = T0 - 2 * HOUR + 5 * HOUR;
    expect(err.message).toContain(new Date(resetsAt).toISOString());
    expect(err.message).toContain('2 requests per 5 hours');
    expect(err.retryAfter).toBe(3 * 3600);
    // The oldest request leaves the window at its reset time.
    clock.now = resetsAt + 1;
    await limiter.admit('k', own);
  });

  it('checks every window: the first full one answers', async () => {
    const { limiter, usage } = setup();
    const own = limits({
      windows: [
        { requests: 100, hours: 5 },
        { requests: 3, hours: 1 },
      ],
    });
    for (const ago of [50, 40, 30]) usage.add('k', T0 - ago * MINUTE);
    const err = await refusal(limiter.admit('k', own));
    expect(err.code).toBe(1308);
    expect(err.message).toContain('3 requests per 1 hours');
    expect(err.message).toContain(new Date(T0 + 10 * MINUTE).toISOString());
  });

  it('a window with room admits, up to its last request', async () => {
    const { limiter, usage } = setup();
    const own = limits({ windows: [{ requests: 2, hours: 5 }] });
    usage.add('k', T0 - MINUTE);
    await expect(limiter.admit('k', own)).resolves.toBeTypeOf('function');
    usage.add('k', T0);
    expect((await refusal(limiter.admit('k', own))).code).toBe(1308);
  });

  it('a window is checked before the per-minute and concurrency limits', async () => {
    const { limiter, usage } = setup();
    const own = limits({ concurrent: 1, requests_per_minute: 1, windows: [{ requests: 1, hours: 1 }] });
    await limiter.admit('k', own);
    usage.add('k', T0);
    expect((await refusal(limiter.admit('k', own))).code).toBe(1308);
  });
});
