import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import {
  dataUrl,
  jpegBytes,
  type MediaServer,
  pngBytes,
  type SentCounter,
  send,
  startMediaServer,
  streamBody,
} from './fixtures.js';

describe('POST /paas/v4/tokenizer with an image (llama.cpp test model)', () => {
  let dir: string;
  let t: TestApp;
  let server: MediaServer;
  const sent: SentCounter = { bytes: 0, aborted: 0 };
  beforeAll(async () => {
    server = await startMediaServer({
      '/cat.png': send('image/png', pngBytes(640, 480)),
      '/slow.png': streamBody('image/png', pngBytes(64, 64), 4 * 1024 * 1024, sent, {
        delayMs: 50,
        declareLength: false,
      }),
    });
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

  it('refuses a 51st file item with 1214 before fetching anything', async () => {
    const content = Array.from({ length: 51 }, (_, i) => ({
      type: 'file_url',
      file_url: { url: `${server.origin}/f${i}` },
    }));
    const before = server.connections;
    const res = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6v', messages: [{ role: 'user', content }] });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: '1214' });
    expect(String(res.body.message)).toContain('tokenizer.max_file_items');
    expect(server.connections).toBe(before);
  });

  it('stops fetching media when the client disconnects', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    expect(address).toContain(String(port));
    const content = [
      { type: 'image_url', image_url: { url: `${server.origin}/slow.png?a` } },
      { type: 'image_url', image_url: { url: `${server.origin}/slow.png?b` } },
    ];
    const body = JSON.stringify({ model: 'gen-4.6v', messages: [{ role: 'user', content }] });
    const aborted = sent.aborted;
    const req = httpRequest({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/paas/v4/tokenizer',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    req.end(body);
    await new Promise((r) => setTimeout(r, 400));
    expect(sent.bytes).toBeGreaterThan(0);
    req.destroy();
    await new Promise((r) => setTimeout(r, 300));
    const after = sent.bytes;
    await new Promise((r) => setTimeout(r, 500));
    expect(sent.bytes).toBe(after);
    expect(sent.aborted).toBe(aborted + 1);
  });
});
