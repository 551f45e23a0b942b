import { experimental_generateImage as generateImage } from 'ai';
import OpenAI from 'openai';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZhipu } from 'zhipu-ai-provider';
import { ZhipuAI } from 'zhipuai-sdk-nodejs-v4';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let replay: ReplayControl;
let baseURL: string;

beforeAll(async () => {
  replay = await startOpenAIReplay();
  replay.native = { width: 512, height: 512 };
  t = await createTestApp({
    models: {
      'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: replay.url, model: 'stand-in' }] },
    },
    safety: { block_terms: ['forbiddenword'] },
  });
  baseURL = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/paas/v4`;
});
afterAll(async () => {
  await t?.close();
  await replay?.close();
});

async function size(url: string) {
  const res = await fetch(url);
  expect(res.headers.get('content-type')).toBe('image/png');
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  return `${meta.width}x${meta.height}`;
}

describe('image SDKs against the running server', () => {
  it('openai: images.generate', async () => {
    const client = new OpenAI({ baseURL, apiKey: t.key, maxRetries: 0 });
    const res = await client.images.generate({
      model: 'gen-image',
      prompt: 'a lighthouse at dawn',
      size: '1568x1056',
    });
    expect(res.created).toEqual(expect.any(Number));
    expect(await size(res.data![0]!.url!)).toBe('1568x1056');
  });

  it('openai: a blocked prompt is an APIError with status 400 and code 1301', async () => {
    const client = new OpenAI({ baseURL, apiKey: t.key, maxRetries: 0 });
    const err = await client.images
      .generate({ model: 'gen-image', prompt: 'a forbiddenword' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('1301');
  });

  it('zhipu-ai-provider with ai@5: generateImage', async () => {
    const zhipu = createZhipu({ baseURL, apiKey: t.key });
    const { image } = await generateImage({
      model: zhipu.imageModel('gen-image'),
      prompt: 'a red fox',
      size: '1280x1280',
      maxRetries: 0,
    });
    const meta = await sharp(Buffer.from(image.uint8Array)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 1280, 1280]);
  });

  it('zhipuai-sdk-nodejs-v4: createImages (JWT auth)', async () => {
    const client = new ZhipuAI({ apiKey: t.key, baseUrl: baseURL, maxRetries: 0 });
    const res = (await client.createImages({
      model: 'gen-image',
      prompt: 'a heron',
      size: '1056x1568',
    })) as unknown as {
      created: number;
      data: { url: string }[];
      content_filter: { role: string; level: number }[];
    };
    expect(res.content_filter).toEqual([{ role: 'user', level: 3 }]);
    expect(await size(res.data[0]!.url)).toBe('1056x1568');
  });
});
