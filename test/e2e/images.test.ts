import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let replay: ReplayControl;
let base: string;

const SYNC = '/paas/v4/images/generations';
const ASYNC = '/paas/v4/async/images/generations';

async function fetchImage(url: string) {
  const path = new URL(url).pathname;
  const res = await t.app.inject({ method: 'GET', url: path });
  return { status: res.statusCode, type: res.headers['content-type'], meta: await sharp(res.rawPayload).metadata() };
}

async function poll(id: string, key = t.key) {
  for (let i = 0; i < 200; i++) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/paas/v4/async-result/${id}`,
      headers: { authorization: `Bearer ${key}` },
    });
    const body = res.json() as Record<string, unknown>;
    if (body['task_status'] !== 'PROCESSING') return { status: res.statusCode, body };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('task still PROCESSING');
}

beforeAll(async () => {
  replay = await startOpenAIReplay();
  t = await createTestApp({
    models: {
      'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: replay.url, model: 'stand-in' }] },
    },
    safety: { block_terms: ['forbiddenword', '禁止词'] },
    images: { concurrency: 2, poll_interval_ms: 100 },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await replay.close();
});

describe('images, sync', () => {
  it('answers created, one URL on this server and content_filter; the file has the default size', async () => {
    replay.native = { width: 512, height: 512 };
    const res = await t.post(SYNC, { model: 'gen-image', prompt: 'a lighthouse at dawn' });
    replay.native = undefined;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created: expect.any(Number),
      data: [{ url: expect.stringMatching(/^http:\/\/localhost(:\d+)?\/files\/[A-Za-z0-9_-]{22,}\.png$/) }],
      content_filter: [{ role: 'user', level: 3 }],
    });
    const url = (res.body['data'] as { url: string }[])[0]!.url;
    const image = await fetchImage(url);
    expect(image).toMatchObject({ status: 200, type: 'image/png', meta: { width: 1280, height: 1280 } });
    expect(replay.jobs.at(-1)).toMatchObject({ prompt: 'a lighthouse at dawn', width: 1280, height: 1280 });
  });

  it('serves the requested size when the engine made another (resized)', async () => {
    replay.native = { width: 512, height: 512 };
    replay.format = 'jpeg';
    const res = await t.post(SYNC, {
      model: 'gen-image',
      prompt: 'a lighthouse',
      size: '1568x1056',
      quality: 'standard',
    });
    replay.native = undefined;
    replay.format = 'png';
    const url = (res.body['data'] as { url: string }[])[0]!.url;
    expect(url).toMatch(/\.jpg$/);
    expect(await fetchImage(url)).toMatchObject({
      type: 'image/jpeg',
      meta: { format: 'jpeg', width: 1568, height: 1056 },
    });
  });

  it('refuses a blocked prompt with 1301 and generates nothing', async () => {
    const before = replay.jobs.length;
    for (const prompt of ['a FORBIDDENWORD poster', 'poster: forbiddenword.', '一张禁止词海报']) {
      const res = await t.post(SYNC, { model: 'gen-image', prompt });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 1301, error: { code: '1301' } });
      expect(res.headers['x-should-retry']).toBe('false');
    }
    // Whole words only: a longer word that contains the term is fine.
    expect((await t.post(SYNC, { model: 'gen-image', prompt: 'forbiddenwords are fine' })).status).toBe(200);
    expect(replay.jobs.length).toBe(before + 1);
  });

  it('answers an engine failure with 1234 and an error id', async () => {
    replay.fail = 'error';
    const res = await t.post(SYNC, { model: 'gen-image', prompt: 'a fox' });
    replay.fail = 'none';
    expect(res.status).toBe(502);
    expect(res.body['code']).toBe(1234);
    expect(String(res.body['message'])).toMatch(/error id [0-9a-f]{16}/);
  });

  it('cancels the engine job when the client disconnects (real socket)', async () => {
    replay.delayMs = 3_000;
    const controller = new AbortController();
    const pending = fetch(`${base}${SYNC}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ model: 'gen-image', prompt: 'a slow fox' }),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await expect.poll(() => replay.jobs.at(-1)?.prompt).toBe('a slow fox');
    const cancels = replay.cancels.length;
    controller.abort();
    await pending;
    await expect.poll(() => replay.cancels.length, { timeout: 2_000 }).toBe(cancels + 1);
    replay.delayMs = 0;
  });

  it('answers 200 over a real socket too, with the socket host in the URL', async () => {
    const res = await fetch(`${base}${SYNC}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ model: 'gen-image', prompt: 'a heron', size: '1088x1472' }),
    });
    const body = (await res.json()) as { data: { url: string }[] };
    expect(body.data[0]!.url.startsWith(`${base}/files/`)).toBe(true);
    const file = await fetch(body.data[0]!.url);
    expect(file.headers.get('cache-control')).toMatch(/max-age=\d+/);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(1088);
  });
});

describe('images, async', () => {
  it('writes the task, answers the handle, and the result query gives the image', async () => {
    const res = await t.post(ASYNC, {
      model: 'gen-image',
      prompt: 'a red fox',
      size: null,
      quality: null,
      request_id: 'my-req-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      model: 'gen-image',
      id: expect.stringMatching(/^\d{14}[0-9a-f]{16}$/),
      request_id: 'my-req-1',
      task_status: 'PROCESSING',
    });
    const id = String(res.body['id']);
    const row = await t.services.store.tasks.get(id);
    expect(row?.keyId).toBeDefined();
    const done = await poll(id);
    expect(done.body).toEqual({
      id,
      model: 'gen-image',
      request_id: 'my-req-1',
      task_status: 'SUCCESS',
      image_result: [{ url: expect.stringMatching(/\/files\/.+\.png$/) }],
      content_filter: [{ role: 'user', level: 3 }],
    });
    const url = (done.body['image_result'] as { url: string }[])[0]!.url;
    expect((await fetchImage(url)).meta).toMatchObject({ width: 1280, height: 1280 });
  });

  it('belongs to its key: another key and an unknown id get 404, 1233', async () => {
    const res = await t.post(ASYNC, { model: 'gen-image', prompt: 'a fox' });
    const other = await t.newKey();
    for (const [id, key] of [
      [String(res.body['id']), other],
      ['no-such-task-0000', t.key],
    ] as const) {
      const r = await t.app.inject({
        method: 'GET',
        url: `/paas/v4/async-result/${id}`,
        headers: { authorization: `Bearer ${key}` },
      });
      expect(r.statusCode).toBe(404);
      expect(r.json()).toMatchObject({ code: 1233 });
    }
  });

  it('ends FAIL with the error when the engine fails', async () => {
    replay.fail = 'error';
    const res = await t.post(ASYNC, { model: 'gen-image', prompt: 'a failing fox' });
    const done = await poll(String(res.body['id']));
    replay.fail = 'none';
    expect(done.body).toMatchObject({
      task_status: 'FAIL',
      error: { code: '1234', message: expect.stringMatching(/error id/) },
    });
    expect(done.body['image_result']).toBeUndefined();
  });

  it('refuses a blocked prompt with 1301 and queues nothing', async () => {
    const before = replay.jobs.length;
    const res = await t.post(ASYNC, { model: 'gen-image', prompt: 'forbiddenword' });
    expect(res.body['code']).toBe(1301);
    await new Promise((r) => setTimeout(r, 200));
    expect(replay.jobs.length).toBe(before);
  });
});

describe('images, configuration', () => {
  it('answers 1211 for an image model that is not configured', async () => {
    const bare = await createTestApp();
    for (const url of [SYNC, ASYNC]) {
      const res = await bare.post(url, { model: 'gen-image', prompt: 'a fox' });
      expect(res.status).toBe(400);
      expect(res.body['code']).toBe(1211);
    }
    await bare.close();
  });

  it('answers 503, 1305 with Retry-After when the task queue is full', async () => {
    const full = await createTestApp({
      models: { 'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: replay.url, model: 'm' }] } },
      images: { queue_size: 0 },
    });
    const res = await full.post(ASYNC, { model: 'gen-image', prompt: 'a fox' });
    expect(res.status).toBe(503);
    expect(res.body['code']).toBe(1305);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await full.close();
  });

  it('refuses at start-up an image deployment with a bad option, naming the key', async () => {
    await expect(
      createTestApp({ models: { 'gen-image': { deployments: [{ engine: 'comfyui', base_url: 'http://x' }] } } }),
    ).rejects.toThrow(/models\.gen-image\.deployments\[0\]/);
    await expect(
      createTestApp({ models: { 'gen-image': { deployments: [{ engine: 'llama-cpp', model: 'x' }] } } }),
    ).rejects.toThrow(/unknown engine "llama-cpp"; known: openai-compatible, comfyui, automatic1111/);
  });
});
