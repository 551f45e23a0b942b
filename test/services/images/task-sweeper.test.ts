import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startTaskSweeper } from '../../../src/services/images/task-sweeper.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';

it('deletes ended tasks whose images have expired, and leaves running ones', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sweep-'));
  const store = new SqliteStore(path.join(dir, 'db.sqlite'));
  const base = {
    keyId: 'k',
    kind: 'images.generations',
    model: 'gen-image',
    requestId: 'r',
    input: '{}',
    createdAt: 1,
  };
  await store.tasks.create({ ...base, id: 'ended' });
  await store.tasks.create({ ...base, id: 'running' });
  await store.tasks.claim({ owner: 'w', now: 2, leaseMs: 10, kinds: ['images.generations'] });
  await store.tasks.complete('ended', 'w', '{}', 3);
  const stop = startTaskSweeper(store.tasks, { intervalMs: 30, keepMs: 1_000 }, { warn() {} });
  await expect.poll(async () => store.tasks.get('ended')).toBeUndefined();
  expect((await store.tasks.get('running'))?.status).toBe('PROCESSING');
  stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
