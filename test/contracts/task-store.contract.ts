import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewTask, TaskStore } from '../../src/stores/tasks.js';

export interface TaskStoreFixture {
  tasks: TaskStore;
  /** The same tasks seen through another connection, as another server process would. */
  other: TaskStore;
  /** Records that a key belongs to an account (the console's key owners). */
  own(keyId: string, accountId: string): Promise<void>;
  close(): Promise<void>;
}

let serial = 0;
const task = (createdAt: number, extra: Partial<NewTask> = {}): NewTask => ({
  id: `task-${++serial}-${Math.random().toString(36).slice(2)}`,
  keyId: 'key-a',
  kind: 'images.generations',
  model: 'gen-image',
  requestId: `req-${serial}`,
  input: JSON.stringify({ prompt: 'a fox', n: serial }),
  createdAt,
  ...extra,
});
const claimOf = (owner: string, now: number, kinds = ['images.generations']) => ({ owner, now, leaseMs: 1000, kinds });

/** The task-queue contract: every store runs this same suite. Each test uses its own kind. */
export function runTaskStoreContract(label: string, setup: () => Promise<TaskStoreFixture>): void {
  describe(`task store contract: ${label}`, () => {
    let f: TaskStoreFixture;
    let t: TaskStore;
    beforeAll(async () => {
      f = await setup();
      t = f.tasks;
    });
    afterAll(() => f.close());

    it('stores a task whole and reads it back PROCESSING, unclaimed', async () => {
      const n = task(1_000, { kind: 'k-read' });
      await t.create(n);
      expect(await f.other.get(n.id)).toEqual({
        ...n,
        status: 'PROCESSING',
        result: undefined,
        error: undefined,
        attempts: 0,
        leaseOwner: undefined,
        leaseUntil: undefined,
        updatedAt: 1_000,
      });
      expect(await t.get('no-such-task')).toBeUndefined();
    });

    it('claims the oldest free task of the asked kinds, counting the attempt', async () => {
      const kinds = ['k-order'];
      const late = task(3_000, { kind: 'k-order' });
      const early = task(2_000, { kind: 'k-order' });
      await t.create(late);
      await t.create(early);
      await t.create(task(1_000, { kind: 'k-elsewhere' }));
      expect(await t.countWaiting(kinds, 5_000)).toBe(2);
      const first = await t.claim(claimOf('w1', 5_000, kinds));
      expect(first).toMatchObject({ id: early.id, attempts: 1, leaseOwner: 'w1', leaseUntil: 6_000 });
      expect(await t.countWaiting(kinds, 5_000)).toBe(1);
      expect((await f.other.claim(claimOf('w2', 5_000, kinds)))?.id).toBe(late.id);
      expect(await t.claim(claimOf('w3', 5_000, kinds))).toBeUndefined();
    });

    it('is fair across keys: the task of a key with fewer tasks running goes before an older backlog', async () => {
      const kinds = ['k-fair'];
      const of = (keyId: string, at: number) => task(at, { kind: 'k-fair', keyId });
      const backlog = [of('flood', 1_000), of('flood', 1_001), of('flood', 1_002), of('flood', 1_003)];
      for (const b of backlog) await t.create(b);
      const lone = of('lone', 1_500);
      await t.create(lone);
      // The flood's oldest runs first (nobody runs yet); then the lone key, which runs nothing.
      expect((await t.claim(claimOf('w1', 2_000, kinds)))?.id).toBe(backlog[0]!.id);
      expect((await f.other.claim(claimOf('w2', 2_000, kinds)))?.id).toBe(lone.id);
      // Both keys have one running: oldest first again.
      expect((await t.claim(claimOf('w3', 2_000, kinds)))?.id).toBe(backlog[1]!.id);
      // A lease that ran out is not running: its key counts as idle again, and the task is free.
      expect((await t.claim(claimOf('w4', 3_500, kinds)))?.keyId).toBe('flood');
    });

    it('counts waiting tasks per queue, key and account; running and ended ones do not count', async () => {
      const kind = 'k-shares';
      await f.own('sh-a1', 'acct-sh');
      await f.own('sh-a2', 'acct-sh');
      for (const keyId of ['sh-a1', 'sh-a1', 'sh-a2', 'sh-lone']) await t.create(task(1_000, { kind, keyId }));
      await t.create(task(1_000, { kind: 'k-shares-other', keyId: 'sh-a1' }));
      expect(await f.other.waitingShares(kind, 'sh-a1', 'acct-sh', 2_000)).toEqual({ queue: 4, key: 2, account: 3 });
      expect(await t.waitingShares(kind, 'sh-lone', undefined, 2_000)).toEqual({ queue: 4, key: 1, account: 0 });
      const running = await t.claim(claimOf('w1', 2_000, [kind]));
      expect(running?.keyId).toBe('sh-a1');
      expect(await t.waitingShares(kind, 'sh-a1', 'acct-sh', 2_500)).toEqual({ queue: 3, key: 1, account: 2 });
      // Its lease ran out: it waits again.
      expect(await t.waitingShares(kind, 'sh-a1', 'acct-sh', 3_500)).toEqual({ queue: 4, key: 2, account: 3 });
    });

    it('admits a task only within the queue and its key and account shares, refusing with what is full', async () => {
      const kind = 'k-admit';
      await f.own('ad-a1', 'acct-ad');
      await f.own('ad-a2', 'acct-ad');
      const share = { queueSize: 5, perKey: 2, perAccount: 3 };
      const of = (keyId: string) => task(1_000, { kind, keyId });
      const inAccount = { ...share, accountId: 'acct-ad' };
      expect(await t.createWithin(of('ad-a1'), inAccount)).toEqual({ admitted: true });
      expect(await t.createWithin(of('ad-a1'), inAccount)).toEqual({ admitted: true });
      const refused = of('ad-a1');
      expect(await t.createWithin(refused, inAccount)).toEqual({ admitted: false, full: 'key', held: 2 });
      expect(await t.get(refused.id)).toBeUndefined();
      expect(await f.other.createWithin(of('ad-a2'), inAccount)).toEqual({ admitted: true });
      expect(await f.other.createWithin(of('ad-a2'), inAccount)).toEqual({ admitted: false, full: 'account', held: 3 });
      // Another key, of no account, still gets its place; then the whole queue is full.
      expect(await t.createWithin(of('ad-b'), share)).toEqual({ admitted: true });
      expect(await t.createWithin(of('ad-c'), share)).toEqual({ admitted: true });
      expect(await t.createWithin(of('ad-d'), share)).toEqual({ admitted: false, full: 'queue', held: 5 });
    });

    it('50 concurrent admissions from two connections never take more than the share', async () => {
      const kind = 'k-admit-race';
      await f.own('race-a', 'acct-race');
      await f.own('race-b', 'acct-race');
      const share = { queueSize: 100, perKey: 7, perAccount: 100 };
      const flood = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? f.other : t).createWithin(task(1_000, { kind, keyId: 'race-a' }), share),
        ),
      );
      expect(flood.filter((a) => a.admitted)).toHaveLength(7);
      expect((await t.waitingShares(kind, 'race-a', undefined, 1_000)).key).toBe(7);
      // The account's share, reached by two of its keys at once.
      const accountShare = { queueSize: 100, perKey: 100, perAccount: 12, accountId: 'acct-race' };
      const both = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? f.other : t).createWithin(task(1_000, { kind, keyId: i % 3 ? 'race-b' : 'race-a' }), accountShare),
        ),
      );
      expect(both.filter((a) => a.admitted)).toHaveLength(5);
      expect((await t.waitingShares(kind, 'race-a', 'acct-race', 1_000)).account).toBe(12);
      // Another key's task is still accepted.
      expect(await t.createWithin(task(1_000, { kind, keyId: 'race-other' }), share)).toEqual({ admitted: true });
    });

    it('never hands one task to two concurrent claimers', async () => {
      const kinds = ['k-race'];
      for (let i = 0; i < 10; i++) await t.create(task(1_000 + i, { kind: 'k-race' }));
      const claims = await Promise.all(
        Array.from({ length: 16 }, (_, i) => (i % 2 ? f.other : t).claim(claimOf(`w${i}`, 2_000, kinds))),
      );
      const ids = claims.filter((c) => c !== undefined).map((c) => c.id);
      expect(ids).toHaveLength(10);
      expect(new Set(ids).size).toBe(10);
    });

    it('renews a lease only for its holder; an expired lease is claimed again', async () => {
      const kinds = ['k-lease'];
      const n = task(1_000, { kind: 'k-lease' });
      await t.create(n);
      await t.claim(claimOf('w1', 2_000, kinds));
      expect(await t.heartbeat(n.id, 'w2', 9_000)).toBe(false);
      expect(await t.heartbeat(n.id, 'w1', 4_000)).toBe(true);
      expect(await t.claim(claimOf('w2', 3_999, kinds))).toBeUndefined();
      // w1 died: its lease ran out at 4_000.
      const again = await f.other.claim(claimOf('w2', 4_001, kinds));
      expect(again).toMatchObject({ id: n.id, attempts: 2, leaseOwner: 'w2' });
      // The old holder has lost it: it can neither renew nor finish.
      expect(await t.heartbeat(n.id, 'w1', 9_000)).toBe(false);
      expect(await t.complete(n.id, 'w1', '{}', 4_100)).toBe(false);
      expect(await t.complete(n.id, 'w2', '{"url":"x"}', 4_200)).toBe(true);
    });

    it('takes a released task back into the queue at once, without counting the attempt', async () => {
      const kinds = ['k-release'];
      const n = task(1_000, { kind: 'k-release' });
      await t.create(n);
      await t.claim(claimOf('w1', 2_000, kinds));
      expect(await t.release(n.id, 'w2', 2_100)).toBe(false);
      expect(await t.release(n.id, 'w1', 2_100)).toBe(true);
      expect(await t.countWaiting(kinds, 2_100)).toBe(1);
      expect(await f.other.claim(claimOf('w2', 2_200, kinds))).toMatchObject({
        id: n.id,
        attempts: 1,
        leaseOwner: 'w2',
      });
      expect(await t.release(n.id, 'w1', 2_300)).toBe(false);
    });

    it('deletes ended tasks older than a time, never running ones', async () => {
      const kinds = ['k-sweep'];
      const old = task(1_000, { kind: 'k-sweep' });
      const running = task(1_001, { kind: 'k-sweep' });
      const recent = task(1_002, { kind: 'k-sweep' });
      for (const n of [old, running, recent]) await t.create(n);
      for (let i = 0; i < 3; i++) await t.claim(claimOf('w1', 2_000, kinds));
      await t.complete(old.id, 'w1', '{}', 3_000);
      await t.fail(recent.id, 'w1', { code: 1234, message: 'x' }, 9_000);
      expect(await t.deleteEndedBefore(5_000)).toBeGreaterThanOrEqual(1);
      expect(await t.get(old.id)).toBeUndefined();
      expect((await t.get(running.id))?.status).toBe('PROCESSING');
      expect((await t.get(recent.id))?.status).toBe('FAIL');
    });

    it('ends PROCESSING exactly once, with the result or the error', async () => {
      const kinds = ['k-end'];
      const ok = task(1_000, { kind: 'k-end' });
      const bad = task(1_001, { kind: 'k-end' });
      await t.create(ok);
      await t.create(bad);
      await t.claim(claimOf('w1', 2_000, kinds));
      await t.claim(claimOf('w1', 2_000, kinds));
      expect(await t.complete(ok.id, 'w1', '{"file":"a"}', 2_500)).toBe(true);
      expect(await t.fail(ok.id, 'w1', { code: 1234, message: 'late' }, 2_600)).toBe(false);
      expect(await t.complete(ok.id, 'w1', '{"file":"b"}', 2_600)).toBe(false);
      expect(await t.fail(bad.id, 'w1', { code: 1234, message: 'engine down' }, 2_700)).toBe(true);
      expect(await t.complete(bad.id, 'w1', '{}', 2_800)).toBe(false);
      expect(await f.other.get(ok.id)).toMatchObject({
        status: 'SUCCESS',
        result: '{"file":"a"}',
        error: undefined,
        updatedAt: 2_500,
      });
      expect(await f.other.get(bad.id)).toMatchObject({
        status: 'FAIL',
        result: undefined,
        error: { code: 1234, message: 'engine down' },
      });
      // Finished tasks are neither waiting nor claimable, whatever their lease said.
      expect(await t.countWaiting(kinds, 99_000)).toBe(0);
      expect(await t.claim(claimOf('w2', 99_000, kinds))).toBeUndefined();
    });
  });
}
