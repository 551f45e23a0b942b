import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let replay: ReplayControl;

const SYNC = '/paas/v4/images/generations';
const ASYNC = '/paas/v4/async/images/generations';

beforeAll(async () => {
  replay = await startOpenAIReplay();
  t = await createTestApp({
    models: {
      'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: replay.url, model: 'stand-in' }] },
    },
    images: { concurrency: 2, poll_interval_ms: 100 },
    files: { max_files_per_account: 1, max_bytes_per_account: 10_000_000 },
  });
});
afterAll(async () => {
  await t.close();
  await replay.close();
});

describe('images and the file caps: refused before the image is made', () => {
  it('a key whose share of the file store is taken: sync and async are refused with 1308, the engine never called', async () => {
    const first = await t.post(SYNC, { model: 'gen-image', prompt: 'a fox' });
    expect(first.status).toBe(200);
    const before = replay.jobs.length;
    const sync = await t.post(SYNC, { model: 'gen-image', prompt: 'a second fox' });
    expect(sync.status).toBe(429);
    expect(sync.body['code']).toBe(1308);
    expect(String(sync.body['message'])).toMatch(/holds 1 generated files .*files\.max_files_per_account/);
    const queued = await t.post(ASYNC, { model: 'gen-image', prompt: 'a third fox' });
    expect(queued.status).toBe(429);
    expect(queued.body['code']).toBe(1308);
    await new Promise((r) => setTimeout(r, 300));
    expect(replay.jobs.length).toBe(before);
    // Another key has a share of its own.
    expect((await t.post(SYNC, { model: 'gen-image', prompt: 'a fox' }, await t.newKey())).status).toBe(200);
  });

  it('an image whose size could not fit the byte share is refused before the engine runs', async () => {
    const key = await t.newKey();
    const before = replay.jobs.length;
    // 2048 × 2048 RGBA is 16.8 MB, more than files.max_bytes_per_account (10 MB).
    for (const url of [SYNC, ASYNC]) {
      const res = await t.post(url, { model: 'gen-image', prompt: 'a fox', size: '2048x2048' }, key);
      expect(res.status).toBe(429);
      expect(res.body['code']).toBe(1308);
      expect(String(res.body['message'])).toMatch(/10000000 bytes \(files\.max_bytes_per_account\)/);
    }
    expect(replay.jobs.length).toBe(before);
  });

  it('a queued task whose key filled its share meanwhile fails with 1308 before the engine runs', async () => {
    const key = await t.newKey();
    // Two slow images of other keys take both slots: the task waits in the queue.
    replay.delayMs = 1_500;
    const busy = [1, 2].map(async () => t.post(SYNC, { model: 'gen-image', prompt: 'slow' }, await t.newKey()));
    await vi.waitFor(() => expect(replay.jobs.filter((j) => j.prompt === 'slow')).toHaveLength(2), { timeout: 20_000 });
    const task = await t.post(ASYNC, { model: 'gen-image', prompt: 'queued fox' }, key);
    expect(task.status).toBe(200);
    // Meanwhile the key's one file is taken (by another of its requests, here or in another process).
    await t.services.files.put(Buffer.from('x'), { contentType: 'text/plain', owner: key.split('.')[0] });
    replay.delayMs = 0;
    await Promise.all(busy);
    const end = await pollTask(String(task.body['id']), key);
    expect(end['task_status']).toBe('FAIL');
    expect(end['error']).toMatchObject({ code: '1308' });
    expect(replay.jobs.filter((j) => j.prompt === 'queued fox')).toHaveLength(0);
  });
});

async function pollTask(id: string, key: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 400; i++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/paas/v4/async-result/${id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    const body = res.json() as Record<string, unknown>;
    if (body['task_status'] !== 'PROCESSING') return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task still PROCESSING');
}
