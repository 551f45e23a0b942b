import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let replay: ReplayControl;
let drop: () => Promise<void>;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  replay = await startOpenAIReplay();
  replay.delayMs = 50;
  const fresh = await freshSchema();
  drop = fresh.drop;
  const config = {
    database: { url: DATABASE_URL, schema: fresh.schema },
    models: { 'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: replay.url, model: 'm' }] } },
    images: { concurrency: 3, poll_interval_ms: 50 },
  };
  // Two server processes' worth of services on one PostgreSQL queue.
  a = await createTestApp(config);
  b = await createTestApp(config);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await drop?.();
  await replay?.close();
});

describe('async image tasks on PostgreSQL shared by two servers', () => {
  it('runs every task exactly once, whichever server took it, and answers it on either', async () => {
    const key = await a.newKey();
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const res = await (i % 2 ? a : b).post(
        '/paas/v4/async/images/generations',
        { model: 'gen-image', prompt: `fox ${i}` },
        key,
      );
      expect(res.status).toBe(200);
      ids.push(String(res.body['id']));
    }
    for (const id of ids) {
      await expect
        .poll(async () => (await a.services.store.tasks.get(id))?.status, { timeout: 20_000, interval: 50 })
        .toBe('SUCCESS');
    }
    const prompts = replay.jobs.map((j) => j.prompt).sort();
    expect(prompts).toEqual(Array.from({ length: 24 }, (_, i) => `fox ${i}`).sort());
    const owners = new Set<string>();
    for (const id of ids) {
      const task = await b.services.store.tasks.get(id);
      expect(task?.attempts).toBe(1);
      owners.add(String(task?.leaseOwner));
    }
    expect(owners.size).toBeGreaterThan(1);
    const other = await b.app.inject({
      method: 'GET',
      url: `/paas/v4/async-result/${ids[0]}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(other.json()).toMatchObject({ task_status: 'SUCCESS' });
  });
});
