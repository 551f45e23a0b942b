import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { JobSlots } from '../../../src/services/images/job-slots.js';
import { TaskWorkers } from '../../../src/services/images/task-workers.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import type { TaskRecord, TaskStore } from '../../../src/stores/tasks.js';

const log = { error() {}, warn() {} };
let dir: string;
let store: SqliteStore;
let serial = 0;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'workers-'));
  store = new SqliteStore(path.join(dir, 'db.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function addTask(createdAt = Date.now()): Promise<string> {
  const id = `t${++serial}`;
  await store.tasks.create({
    id,
    keyId: 'k',
    kind: 'images.generations',
    model: 'gen-image',
    requestId: id,
    input: '{}',
    createdAt,
  });
  return id;
}

function workers(
  run: (task: TaskRecord, signal: AbortSignal) => Promise<string>,
  extra: { slots?: JobSlots; leaseMs?: number; maxAttempts?: number } = {},
) {
  return new TaskWorkers({
    tasks: store.tasks,
    slots: extra.slots ?? new JobSlots(2, 10),
    kinds: ['images.generations'],
    run,
    leaseMs: extra.leaseMs ?? 1000,
    pollMs: 50,
    maxAttempts: extra.maxAttempts ?? 3,
    log,
  });
}

const ended = async (id: string) => {
  await expect.poll(async () => (await store.tasks.get(id))?.status, { timeout: 5000 }).not.toBe('PROCESSING');
  return (await store.tasks.get(id))!;
};

describe('task workers', () => {
  it('run queued tasks to SUCCESS or FAIL, never more at once than the slots', async () => {
    const slots = new JobSlots(2, 10);
    let running = 0;
    let peak = 0;
    const w = workers(
      async (task) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        if (task.id.endsWith('3')) throw new ApiError(1234, 'engine down');
        return JSON.stringify({ ok: task.id });
      },
      { slots },
    );
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await addTask());
    w.start();
    const results = await Promise.all(ids.map(ended));
    await w.stop();
    expect(peak).toBeLessThanOrEqual(2);
    for (const r of results) {
      if (r.id.endsWith('3'))
        expect(r).toMatchObject({ status: 'FAIL', error: { code: 1234, message: 'engine down' } });
      else expect(r).toMatchObject({ status: 'SUCCESS', result: JSON.stringify({ ok: r.id }) });
    }
    expect(slots.inUse).toBe(0);
  });

  it('take up a task whose worker died once its lease ran out', async () => {
    const id = await addTask();
    // A worker of a process that died: it claimed the task and never came back.
    await store.tasks.claim({ owner: 'dead', now: Date.now(), leaseMs: 300, kinds: ['images.generations'] });
    const w = workers(async () => '{"done":true}');
    w.start();
    const task = await ended(id);
    await w.stop();
    expect(task).toMatchObject({ status: 'SUCCESS', attempts: 2 });
  });

  it('end FAIL with a message after images.max_attempts interrupted starts', async () => {
    const id = await addTask();
    for (let i = 0; i < 2; i++)
      await store.tasks.claim({
        owner: `dead${i}`,
        now: Date.now() + i * 10,
        leaseMs: 1,
        kinds: ['images.generations'],
      });
    let ran = 0;
    const w = workers(
      async () => {
        ran++;
        return '{}';
      },
      { maxAttempts: 2 },
    );
    w.start();
    const task = await ended(id);
    await w.stop();
    expect(ran).toBe(0);
    expect(task).toMatchObject({
      status: 'FAIL',
      error: { code: 1234, message: expect.stringMatching(/interrupted 2 times.*max_attempts = 2/) },
    });
  });

  it('stop the job when another worker took the task over', async () => {
    const id = await addTask();
    let aborted = false;
    const w = workers(
      (_task, signal) =>
        new Promise<string>((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
      { leaseMs: 300 },
    );
    w.start();
    await expect.poll(async () => (await store.tasks.get(id))?.attempts).toBe(1);
    // Simulate a stall: the lease ran out and another process claimed the task.
    store.db
      .prepare('UPDATE tasks SET lease_owner = ?, lease_until = ? WHERE id = ?')
      .run('other', Date.now() + 60_000, id);
    await expect.poll(() => aborted, { timeout: 2000 }).toBe(true);
    await w.stop();
    expect((await store.tasks.get(id))?.status).toBe('PROCESSING');
  });

  it('give running tasks back to the queue on stop, without counting the attempt', async () => {
    const id = await addTask();
    const w = workers(
      (_task, signal) =>
        new Promise<string>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    w.start();
    await expect.poll(async () => (await store.tasks.get(id))?.leaseOwner).toBeDefined();
    await w.stop();
    expect(await store.tasks.get(id)).toMatchObject({ status: 'PROCESSING', attempts: 0, leaseOwner: undefined });
    const next = workers(async () => '{}');
    next.start();
    expect(await ended(id)).toMatchObject({ status: 'SUCCESS', attempts: 1 });
    await next.stop();
  });

  it('retry a failing store at the poll interval, not in a hot loop', async () => {
    let claims = 0;
    // The real store with a claim that fails, as when the database is unreachable.
    const failing: TaskStore = Object.assign(Object.create(store.tasks) as TaskStore, {
      claim: async () => {
        claims++;
        throw new Error('database down');
      },
    });
    const slots = new JobSlots(2, 10);
    const w = new TaskWorkers({
      tasks: failing,
      slots,
      kinds: ['images.generations'],
      run: async () => '{}',
      leaseMs: 1000,
      pollMs: 100,
      maxAttempts: 3,
      log,
    });
    w.start();
    await new Promise((r) => setTimeout(r, 450));
    await w.stop();
    expect(claims).toBeGreaterThanOrEqual(2);
    expect(claims).toBeLessThanOrEqual(8);
    expect(slots.inUse).toBe(0);
  });
});
