import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JobSlots } from '../../../src/services/images/job-slots.js';
import { TaskWorkers } from '../../../src/services/images/task-workers.js';
import { StoreUnavailableError } from '../../../src/stores/faults.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import type { TaskStore } from '../../../src/stores/tasks.js';

/**
 * A worker whose database goes away while it finishes a task: the result is recorded once the
 * database is back (within the lease), and otherwise the task is taken up again, never left in
 * PROCESSING and never failed for the database's sake.
 */
const log = { error() {}, warn() {} };
const lost = () => new StoreUnavailableError({ kind: 'unavailable', cause: 'connection refused', notRun: true });
let dir: string;
let store: SqliteStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'workers-faults-'));
  store = new SqliteStore(path.join(dir, 'db.sqlite'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The store's tasks, with complete() and fail() failing while `down()` says so. */
function flaky(down: () => boolean): TaskStore & { failCalls: number } {
  const tasks = store.tasks;
  const wrapped = Object.create(tasks) as TaskStore & { failCalls: number };
  wrapped.failCalls = 0;
  wrapped.complete = (...args) => (down() ? Promise.reject(lost()) : tasks.complete(...args));
  wrapped.fail = (...args) => {
    wrapped.failCalls++;
    return down() ? Promise.reject(lost()) : tasks.fail(...args);
  };
  return wrapped;
}

async function addTask(id: string): Promise<void> {
  await store.tasks.create({
    id,
    keyId: 'k',
    kind: 'images.generations',
    model: 'gen-image',
    requestId: id,
    input: '{}',
    createdAt: Date.now(),
  });
}

function workers(tasks: TaskStore, run: () => Promise<string>, leaseMs: number): TaskWorkers {
  return new TaskWorkers({
    tasks,
    slots: new JobSlots(1, 10),
    kinds: ['images.generations'],
    run,
    leaseMs,
    pollMs: 50,
    maxAttempts: 5,
    log,
  });
}

describe('task workers through a database outage', () => {
  it('records the result once the database is back, within the lease', async () => {
    let down = true;
    setTimeout(() => {
      down = false;
    }, 600);
    const tasks = flaky(() => down);
    await addTask('t1');
    const w = workers(tasks, async () => '{"ok":1}', 2000);
    w.start();
    await expect.poll(async () => (await store.tasks.get('t1'))?.status, { timeout: 5000 }).toBe('SUCCESS');
    expect((await store.tasks.get('t1'))?.result).toBe('{"ok":1}');
    expect(tasks.failCalls).toBe(0);
    await w.stop();
  });

  it('leaves a task whose result could not be recorded to be taken up again, then finishes it', async () => {
    let down = true;
    const tasks = flaky(() => down);
    await addTask('t2');
    let runs = 0;
    const w = workers(
      tasks,
      async () => {
        runs++;
        if (runs === 2) down = false; // the database is back by the second run
        return `{"run":${runs}}`;
      },
      300,
    );
    w.start();
    await expect.poll(async () => (await store.tasks.get('t2'))?.status, { timeout: 8000 }).toBe('SUCCESS');
    expect(runs).toBe(2);
    expect((await store.tasks.get('t2'))?.result).toBe('{"run":2}');
    expect(tasks.failCalls).toBe(0);
    await w.stop();
  });
});
