import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyRecord, Store } from '../../src/stores/types.js';

export interface StoreFixture {
  store: Store;
  /** Opens a second store on the same data, as another process would. */
  reopen(): Promise<Store>;
  close(): Promise<void>;
}

const key = (id: string, extra: Partial<KeyRecord> = {}): KeyRecord => ({
  id,
  name: `key ${id}`,
  secretHash: 'ab'.repeat(32),
  secretEncrypted: 'v1.x.y.z',
  endpoints: ['general'],
  role: 'user',
  limits: undefined,
  createdAt: 1_000,
  revokedAt: undefined,
  ...extra,
});

const usage = (keyId: string, createdAt: number, extra: Record<string, unknown> = {}) => ({
  keyId,
  operation: 'chat.completions',
  model: 'gen-4.6',
  requestId: undefined,
  promptTokens: 10,
  completionTokens: 5,
  status: 200,
  latencyMs: 12.5,
  createdAt,
  ...extra,
});

/** The store seam's contract: every implementation runs this same suite. */
export function runStoreContract(label: string, setup: () => Promise<StoreFixture>): void {
  describe(`store contract: ${label}`, () => {
    let f: StoreFixture;
    let s: Store;
    beforeAll(async () => {
      f = await setup();
      s = f.store;
    });
    afterAll(() => f.close());

    it('reports the database up, and answers a ping (health and readiness)', async () => {
      await s.ping();
      expect(s.status.current.state).toBe('up');
      expect(s.status.up).toBe(true);
    });

    it('creates, reads and lists keys with every field intact', async () => {
      const limits = { concurrent: 2, requests_per_minute: 60, windows: [{ requests: 100, hours: 5 }] };
      const a = key('a'.repeat(32), { endpoints: ['general', 'coding'], limits, createdAt: 2_000 });
      const b = key('b'.repeat(32), { role: 'admin', endpoints: [], createdAt: 3_000 });
      await s.createKey(a);
      await s.createKey(b);
      expect(await s.getKey(a.id)).toEqual(a);
      expect(await s.getKey(b.id)).toEqual(b);
      expect(await s.getKey('c'.repeat(32))).toBeUndefined();
      const ids = (await s.listKeys()).map((k) => k.id);
      expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    });

    it('refuses a second key with the same id', async () => {
      const k = key('d'.repeat(32));
      await s.createKey(k);
      await expect(s.createKey(k)).rejects.toThrow();
    });

    it('revokes once, keeps the first time, and reports unknown ids', async () => {
      const k = key('e'.repeat(32));
      await s.createKey(k);
      expect(await s.revokeKey(k.id, 5_000)).toBe(true);
      expect(await s.revokeKey(k.id, 6_000)).toBe(true);
      expect((await s.getKey(k.id))?.revokedAt).toBe(5_000);
      expect(await s.revokeKey('f'.repeat(32), 5_000)).toBe(false);
    });

    it('sees a revocation made by another process', async () => {
      const k = key('1'.repeat(32));
      await s.createKey(k);
      const other = await f.reopen();
      try {
        await other.revokeKey(k.id, 7_000);
      } finally {
        await other.close();
      }
      expect((await s.getKey(k.id))?.revokedAt).toBe(7_000);
    });

    it('sees within 1 s a revocation made by another process of a key it has just read (and may cache)', async () => {
      const k = key('5'.repeat(32));
      await s.createKey(k);
      for (let i = 0; i < 3; i++) expect((await s.getKey(k.id))?.revokedAt).toBeUndefined();
      const other = await f.reopen();
      try {
        await other.revokeKey(k.id, 8_000);
        const revokedAt = Date.now();
        let seen: number | undefined;
        while (seen === undefined && Date.now() - revokedAt < 1000) {
          seen = (await s.getKey(k.id))?.revokedAt;
          if (seen === undefined) await new Promise((r) => setTimeout(r, 20));
        }
        expect(seen).toBe(8_000);
      } finally {
        await other.close();
      }
    });

    it('sums usage per key and operation, counting errors, from a given time', async () => {
      const id = '2'.repeat(32);
      await s.recordUsage([
        usage(id, 10_000),
        usage(id, 11_000, { status: 400, promptTokens: 0, completionTokens: 0 }),
      ]);
      await s.recordUsage([usage(id, 12_000, { operation: 'tokenizer', completionTokens: 0, cost: 7 })]);
      await s.recordUsage([usage('3'.repeat(32), 12_000)]);
      await s.recordUsage([]);
      const all = await s.usageTotals(id);
      expect(all).toMatchObject({
        requests: 3,
        errors: 1,
        promptTokens: 20,
        completionTokens: 5,
        totalTokens: 25,
        cost: 7,
      });
      expect(all.byOperation['chat.completions']).toEqual({
        requests: 2,
        promptTokens: 10,
        completionTokens: 5,
        cost: 0,
      });
      expect(all.byOperation['tokenizer']).toEqual({ requests: 1, promptTokens: 10, completionTokens: 0, cost: 7 });
      expect((await s.usageTotals(id, 11_500)).requests).toBe(1);
      expect(await s.usageTotals('4'.repeat(32))).toMatchObject({ requests: 0, totalTokens: 0, byOperation: {} });
    });

    it('writes a batch of usage records all or none', async () => {
      const id = '9'.repeat(32);
      const bad = { ...usage(id, 1_000), operation: null as unknown as string };
      await expect(s.recordUsage([usage(id, 1_000), bad])).rejects.toThrow();
      expect((await s.usageTotals(id)).requests).toBe(0);
    });

    it('writes a usage record with a journal id once, however often it is replayed (also within a batch)', async () => {
      const id = '8'.repeat(32);
      const first = [usage(id, 1_000, { journalId: 'j1.1' }), usage(id, 2_000, { journalId: 'j1.2' })];
      await s.recordUsage(first);
      await s.recordUsage([...first, usage(id, 3_000, { journalId: 'j1.3' }), usage(id, 3_000, { journalId: 'j1.3' })]);
      // Records without a journal id (written directly) are never taken for each other.
      await s.recordUsage([usage(id, 4_000), usage(id, 4_000)]);
      expect(await s.usageWindow(id, 0)).toEqual({ count: 5, oldest: 1_000 });
    });

    it('counts the requests of a usage window and finds the oldest', async () => {
      const id = '5'.repeat(32);
      await s.recordUsage([1_000, 2_000, 3_000].map((t) => usage(id, t)));
      expect(await s.usageWindow(id, 1_500)).toEqual({ count: 2, oldest: 2_000 });
      expect(await s.usageWindow(id, 9_000)).toEqual({ count: 0, oldest: undefined });
    });

    it('claims a request id once per key', async () => {
      const [k1, k2] = ['6'.repeat(32), '7'.repeat(32)];
      expect(await s.claimRequestId(k1, 'req-000001', 1)).toBe(true);
      expect(await s.claimRequestId(k1, 'req-000001', 2)).toBe(false);
      expect(await s.claimRequestId(k2, 'req-000001', 3)).toBe(true);
    });

    it('claims a request id exactly once under concurrent attempts', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => s.claimRequestId('8'.repeat(32), 'same-id-race', 1)),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('stores cache entries that expire and can be replaced', async () => {
      await s.setCache('page', 'v1', 2_000);
      expect(await s.getCache('page', 1_000)).toBe('v1');
      expect(await s.getCache('page', 2_000)).toBeUndefined();
      await s.setCache('page', 'v2', 5_000);
      expect(await s.getCache('page', 3_000)).toBe('v2');
      expect(await s.getCache('absent', 0)).toBeUndefined();
    });

    it('keeps unicode and large values intact', async () => {
      const value = `${'页面'.repeat(50_000)}😀`;
      await s.setCache('big', value, Number.MAX_SAFE_INTEGER);
      expect(await s.getCache('big', 0)).toBe(value);
    });

    it('purges expired entries, the cache past its cap (soonest to expire first) and old request ids', async () => {
      await s.setCache('purge-old', 'o', 500);
      await s.setCache('purge-a', 'a'.repeat(100), 10_000);
      await s.setCache('purge-b', 'b'.repeat(100), 20_000);
      await s.setCache('purge-c', 'c'.repeat(100), 30_000);
      const keyId = '9'.repeat(32);
      await s.claimRequestId(keyId, 'purge-early', 1_000);
      await s.claimRequestId(keyId, 'purge-late', 50_000);
      // The previous test's 'big' entry (300,004 bytes) expires last and fits: a and old go.
      const done = await s.purge({ now: 9_000, cacheMaxBytes: 300_004 + 200, requestIdsBefore: 10_000 });
      expect(done.cacheEntries).toBeGreaterThanOrEqual(2);
      expect(done.requestIds).toBeGreaterThanOrEqual(1);
      expect(await s.getCache('purge-old', 0)).toBeUndefined();
      expect(await s.getCache('purge-a', 0)).toBeUndefined();
      expect(await s.getCache('purge-b', 0)).toBe('b'.repeat(100));
      expect(await s.getCache('purge-c', 0)).toBe('c'.repeat(100));
      expect(await s.getCache('big', 0)).toBeDefined();
      expect(await s.claimRequestId(keyId, 'purge-early', 60_000)).toBe(true);
      expect(await s.claimRequestId(keyId, 'purge-late', 60_000)).toBe(false);
      // A cap of 0 empties the cache.
      await s.purge({ now: 9_000, cacheMaxBytes: 0, requestIdsBefore: 0 });
      expect(await s.getCache('big', 0)).toBeUndefined();
    });

    it("creates an account's keys within its cap, atomically, from two processes at once", async () => {
      const other = await f.reopen();
      const account = `cap-${label.replace(/\W/g, '')}`;
      const id = (i: number) => `c${i}`.padEnd(32, 'c');
      // Thirty simultaneous creations, half through another process's store, for a cap of three.
      const made = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? other : s).createHeldKey(key(id(i), { createdAt: 5_000 + i }), account, 3),
        ),
      );
      expect(made.filter(Boolean)).toHaveLength(3);
      const owners = await s.accounts.keyOwners();
      const held = [...owners].filter(([, a]) => a === account).map(([k]) => k);
      expect(held).toHaveLength(3);
      for (const k of held) expect(await s.getKey(k)).toBeDefined();
      // A refused creation left no key behind.
      const refused = Array.from({ length: 30 }, (_, i) => id(i)).filter((k) => !held.includes(k));
      for (const k of refused) expect(await s.getKey(k)).toBeUndefined();
      // A revoked key frees its place; a cap of 0 is no cap.
      await s.revokeKey(held[0]!, 6_000);
      expect(await s.createHeldKey(key(id(40)), account, 3)).toBe(true);
      expect(await s.createHeldKey(key(id(41)), account, 3)).toBe(false);
      expect(await s.createHeldKey(key(id(42)), account, 0)).toBe(true);
      if (other !== s) await other.close();
    });
  });
}
