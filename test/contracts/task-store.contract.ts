import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewTask, TaskStore } from '../../src/stores/tasks.js';

export interface TaskStoreFixture {
  tasks: TaskStore;
  /** The same tasks seen through another connection, as another server process would. */
  other: TaskStore;
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
