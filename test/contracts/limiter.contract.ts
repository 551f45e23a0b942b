import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema, type KeyLimits } from '../../src/config/schema.js';
import { ApiError } from '../../src/errors/api-error.js';
import type { Limiter } from '../../src/services/limits/limiter.js';
import type { Store, UsageWindow } from '../../src/stores/types.js';

const HOUR = 3_600_000;

/** The one store method limiters read: request times per key, as usage records would give. */
export class FakeUsage {
  readonly times = new Map<string, number[]>();
  /** Key id → the account that holds it. */
  readonly owners = new Map<string, string>();
  add(keyId: string, at: number): void {
    this.times.set(keyId, [...(this.times.get(keyId) ?? []), at]);
  }
  asStore(): Store {
    const of = (keyIds: string[], since: number): UsageWindow => {
      const inWindow = keyIds.flatMap((k) => this.times.get(k) ?? []).filter((t) => t >= since);
      return { count: inWindow.length, oldest: inWindow.length ? Math.min(...inWindow) : undefined };
    };
    const usageWindow = async (keyId: string, since: number) => of([keyId], since);
    const accountUsageWindow = async (accountId: string, since: number) =>
      of(
        [...this.owners].filter(([, a]) => a === accountId).map(([k]) => k),
        since,
      );
    return { usageWindow, accounts: { accountUsageWindow } } as Partial<Store> as Store;
  }
}

export const limits = (own: Partial<KeyLimits>): KeyLimits => ({
  concurrent: 0,
  requests_per_minute: 0,
  windows: [],
  ...own,
});

export async function refusal(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the limiter to refuse');
}

export interface LimiterFixture {
  limiter: Limiter;
  close(): Promise<void>;
}

/** Builds a limiter on a fake store, with these defaults; each call gets counts of its own. */
export type LimiterSetup = (store: Store, defaults: KeyLimits) => Promise<LimiterFixture>;

/** The limiter seam's contract (real time: no clock is faked, so Redis can run it too). */
export function runLimiterContract(label: string, setup: LimiterSetup): void {
  describe(`limiter contract: ${label}`, () => {
    const open: LimiterFixture[] = [];
    const make = async (defaults: Partial<KeyLimits> = {}, usage = new FakeUsage()) => {
      const f = await setup(usage.asStore(), limits(defaults));
      open.push(f);
      return { limiter: f.limiter, usage };
    };
    afterEach(async () => {
      await Promise.all(open.splice(0).map((f) => f.close()));
    });

    it('concurrency: admits up to the limit, refuses the next with 1302 and Retry-After, admits after a release', async () => {
      const { limiter } = await make();
      const own = limits({ concurrent: 2 });
      const first = await limiter.admit('k', own);
      await limiter.admit('k', own);
      const err = await refusal(limiter.admit('k', own));
      expect(err).toMatchObject({ code: 1302, status: 429, retryable: true });
      expect(err.retryAfter).toBeGreaterThan(0);
      expect(err.message).toContain('2 at a time');
      first();
      await expect(limiter.admit('k', own)).resolves.toBeTypeOf('function');
    });

    it('concurrency: a release called twice frees one slot only', async () => {
      const { limiter } = await make();
      const own = limits({ concurrent: 2 });
      const a = await limiter.admit('k', own);
      await limiter.admit('k', own);
      a();
      a();
      await limiter.admit('k', own);
      expect((await refusal(limiter.admit('k', own))).code).toBe(1302);
    });

    it('concurrency: admissions racing each other get exactly the limit', async () => {
      const { limiter } = await make();
      const own = limits({ concurrent: 5 });
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => limiter.admit('k', own)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).code).toBe(1302);
    });

    it('counts per key, and 0 means no limit', async () => {
      const { limiter } = await make();
      const own = limits({ concurrent: 1, requests_per_minute: 1 });
      await limiter.admit('a', own);
      await limiter.admit('b', own);
      expect((await refusal(limiter.admit('a', own))).code).toBeGreaterThanOrEqual(1302);
      for (let i = 0; i < 50; i++) await limiter.admit('free', limits({}));
    });

    it('uses the configured defaults for a key without limits of its own', async () => {
      const { limiter } = await make({ concurrent: 1 });
      await limiter.admit('k', undefined);
      expect((await refusal(limiter.admit('k', undefined))).code).toBe(1302);
      await expect(limiter.admit('k', limits({ concurrent: 5 }))).resolves.toBeTypeOf('function');
    });

    it('holds keys without limits of their own to the shipped default concurrency, each key on its own', async () => {
      const shipped = ConfigSchema.properties.limits.properties.concurrent.default as number;
      expect(shipped).toBeGreaterThan(0);
      const { limiter } = await make({ concurrent: shipped });
      const releases = [];
      for (let i = 0; i < shipped; i++) releases.push(await limiter.admit('burst', undefined));
      const err = await refusal(limiter.admit('burst', undefined));
      expect(err).toMatchObject({ code: 1302, status: 429 });
      expect(err.message).toContain(`${shipped} at a time`);
      // Another key is not held up by the first one's burst; a key's own 0 still means no limit.
      await expect(limiter.admit('lone', undefined)).resolves.toBeTypeOf('function');
      for (let i = 0; i <= shipped; i++) await limiter.admit('own', limits({ concurrent: 0 }));
      releases[0]!();
      await expect(limiter.admit('burst', undefined)).resolves.toBeTypeOf('function');
    });

    it('per minute: exactly the limit, then 1303 with Retry-After within the minute', async () => {
      const { limiter } = await make();
      const own = limits({ requests_per_minute: 10 });
      for (let i = 0; i < 10; i++) (await limiter.admit('k', own))();
      const err = await refusal(limiter.admit('k', own));
      expect(err).toMatchObject({ code: 1303, status: 429, retryable: true });
      expect(err.retryAfter).toBeGreaterThan(0);
      expect(err.retryAfter).toBeLessThanOrEqual(60);
      expect(err.message).toContain('10 per minute');
    });

    it('per minute: refused requests do not count, nor do those refused for concurrency', async () => {
      const { limiter } = await make();
      const own = limits({ concurrent: 1, requests_per_minute: 2 });
      const release = await limiter.admit('k', own);
      for (let i = 0; i < 5; i++) expect((await refusal(limiter.admit('k', own))).code).toBe(1302);
      release();
      (await limiter.admit('k', own))();
      for (let i = 0; i < 3; i++) expect((await refusal(limiter.admit('k', own))).code).toBe(1303);
    });

    it('usage window: the stored requests fill it; 1308 names the reset time (oldest + span)', async () => {
      const usage = new FakeUsage();
      const now = Date.now();
      usage.add('k', now - 2 * HOUR);
      usage.add('k', now - HOUR);
      const { limiter } = await make({}, usage);
      const own = limits({ windows: [{ requests: 2, hours: 5 }] });
      const err = await refusal(limiter.admit('k', own));
      expect(err).toMatchObject({ code: 1308, status: 429, retryable: false });
      expect(err.message).toContain('2 requests per 5 hours');
      expect(err.message).toContain(new Date(now - 2 * HOUR + 5 * HOUR).toISOString());
      expect(err.retryAfter).toBeGreaterThan(3 * 3600 - 5);
      expect(err.retryAfter).toBeLessThanOrEqual(3 * 3600);
    });

    it('usage window: the first full window answers; a window with room admits', async () => {
      const usage = new FakeUsage();
      const now = Date.now();
      for (const ago of [50, 40, 30]) usage.add('k', now - ago * 60_000);
      const { limiter } = await make({}, usage);
      const err = await refusal(
        limiter.admit(
          'k',
          limits({
            windows: [
              { requests: 100, hours: 5 },
              { requests: 3, hours: 1 },
            ],
          }),
        ),
      );
      expect(err.message).toContain('3 requests per 1 hours');
      await limiter.admit('k', limits({ windows: [{ requests: 4, hours: 1 }] }));
    });

    it("usage window of an account (account:<id>): every key's stored requests fill it, each key's own window apart", async () => {
      const usage = new FakeUsage();
      const now = Date.now();
      usage.owners.set('k1', 'a1');
      usage.owners.set('k2', 'a1');
      usage.owners.set('k3', 'a2');
      usage.add('k1', now - 2 * HOUR);
      usage.add('k2', now - HOUR);
      usage.add('k3', now - HOUR);
      const { limiter } = await make({}, usage);
      const shared = limits({ windows: [{ requests: 2, hours: 5 }] });
      const err = await refusal(limiter.admit('account:a1', shared));
      expect(err).toMatchObject({ code: 1308, status: 429 });
      expect(err.message).toContain('this account allows 2 requests per 5 hours');
      expect(err.message).toContain(new Date(now - 2 * HOUR + 5 * HOUR).toISOString());
      // Each key alone has room, and so has the other account.
      await limiter.admit('k1', shared);
      await limiter.admit('account:a2', shared);
    });

    it('a full window is answered before the per-minute and concurrency limits', async () => {
      const usage = new FakeUsage();
      usage.add('k', Date.now() - 1000);
      const { limiter } = await make({}, usage);
      const own = limits({ concurrent: 1, requests_per_minute: 1, windows: [{ requests: 1, hours: 1 }] });
      expect((await refusal(limiter.admit('k', own))).code).toBe(1308);
    });
  });
}
