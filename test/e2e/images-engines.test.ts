import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { COMFY_INPUTS, FIXTURES } from '../engines/image/helpers.js';
import { startA1111Replay } from '../engines/image/replay/a1111-replay.js';
import { startComfyReplay } from '../engines/image/replay/comfyui-replay.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { createTestApp } from '../helpers/test-app.js';

async function sizeOf(t: Awaited<ReturnType<typeof createTestApp>>, url: string) {
  const res = await t.app.inject({ method: 'GET', url: new URL(url).pathname });
  const meta = await sharp(res.rawPayload).metadata();
  return `${meta.width}x${meta.height}`;
}

describe('gen-image on each engine, through the platform', () => {
  it('comfyui: the workflow runs with the request and the image comes back at its size', async () => {
    const comfy = await startComfyReplay();
    comfy.native = { width: 1024, height: 1024 };
    const t = await createTestApp({
      models: {
        'gen-image': {
          deployments: [
            {
              engine: 'comfyui',
              base_url: comfy.url,
              workflow: path.join(FIXTURES, 'sd-txt2img-api.json'),
              inputs: COMFY_INPUTS,
              poll_interval_ms: 50,
            },
          ],
        },
      },
    });
    const res = await t.post('/paas/v4/images/generations', {
      model: 'gen-image',
      prompt: 'a castle',
      size: '1728x960',
      quality: 'standard',
    });
    expect(res.status).toBe(200);
    expect(comfy.jobs[0]).toMatchObject({ prompt: 'a castle', width: 1728, height: 960, steps: 20 });
    expect(await sizeOf(t, (res.body['data'] as { url: string }[])[0]!.url)).toBe('1728x960');
    await t.close();
    await comfy.close();
  });

  it('automatic1111: async task at hd quality', async () => {
    const a1111 = await startA1111Replay();
    const t = await createTestApp({
      models: { 'gen-image': { deployments: [{ engine: 'automatic1111', base_url: a1111.url }] } },
      images: { poll_interval_ms: 50 },
    });
    const res = await t.post('/paas/v4/async/images/generations', { model: 'gen-image', prompt: 'a castle' });
    const id = String(res.body['id']);
    await expect.poll(async () => (await t.services.store.tasks.get(id))?.status, { timeout: 10_000 }).toBe('SUCCESS');
    expect(a1111.jobs[0]).toMatchObject({ prompt: 'a castle', width: 1280, height: 1280, steps: 30 });
    await t.close();
    await a1111.close();
  });

  it('skips a deployment that is down and serves from the next', async () => {
    const replay = await startOpenAIReplay();
    const t = await createTestApp({
      models: {
        'gen-image': {
          deployments: [
            { engine: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'down' },
            { engine: 'openai-compatible', base_url: replay.url, model: 'up' },
          ],
        },
      },
    });
    for (let i = 0; i < 3; i++) {
      const res = await t.post('/paas/v4/images/generations', { model: 'gen-image', prompt: `fox ${i}` });
      expect(res.status).toBe(200);
    }
    expect(replay.jobs).toHaveLength(3);
    await t.close();
    await replay.close();
  });
});
