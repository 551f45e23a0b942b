import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { dataUrl, jpegBytes, type MediaServer, pngBytes, send, startMediaServer } from './fixtures.js';

describe('POST /paas/v4/tokenizer with an image (llama.cpp test model)', () => {
  let dir: string;
  let t: TestApp;
  let server: MediaServer;
  beforeAll(async () => {
    server = await startMediaServer({ '/cat.png': send('image/png', pngBytes(640, 480)) });
    dir = await mkdtemp(join(tmpdir(), 'tokenizer-app-'));
    const { programmed } = await writeTestModels(dir);
    const deployment = { engine: 'llama-cpp', model: programmed, threads: 1, context_size: 2048 };
    t = await createTestApp({
      models: { 'gen-4.6v': { deployments: [deployment] }, 'gen-4.6': { deployments: [deployment] } },
      // The tokenizer fetches media under the reader's allow-list.
      reader: { allow_hosts: ['127.0.0.1'] },
    });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const messages = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image_url', image_url: { url: dataUrl('image/jpeg', jpegBytes(1280, 720)) } },
      ],
    },
  ];

  it('counts image tokens on gen-4.6v and sums the total', async () => {
    const res = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6v', messages });
    expect(res.status).toBe(200);
    const usage = res.body.usage as Record<string, number>;
    expect(usage.image_tokens).toBe(46 * 26 + 2);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.video_tokens).toBe(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens! + usage.image_tokens! + usage.video_tokens!);
  });

  it('refuses the image on gen-4.6, which has no vision', async () => {
    const res = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6', messages });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: '1214' });
    expect(JSON.stringify(res.body)).toContain('messages[0].content[1]');
  });

  it('fetches an image URL from a host on reader.allow_hosts', async () => {
    const content = [
      { type: 'text', text: 'And this?' },
      { type: 'image_url', image_url: { url: `${server.origin}/cat.png` } },
    ];
    const res = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6v', messages: [{ role: 'user', content }] });
    expect(res.status).toBe(200);
    expect((res.body.usage as Record<string, number>).image_tokens).toBe(23 * 17 + 2);
  });
});
