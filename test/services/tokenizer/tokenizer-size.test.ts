import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { type MediaServer, pngBytes, send, startMediaServer } from './fixtures.js';

/**
 * The tokenizer's input is bounded by the model's context (context × chat.max_chars_per_token),
 * refused before any fetch or tokenizing; inputs up to that bound are counted one at a time, each on
 * a turn of its own, so other requests are served meanwhile. Without the cap, 8.7 MB of text held
 * the event loop 5 s.
 */
describe('POST /paas/v4/tokenizer: input size bounded by the model context', () => {
  const CONTEXT = 4096; // the test model's own context length
  const LIMIT = CONTEXT * 32; // chat.max_chars_per_token defaults to 32
  let dir: string;
  let t: TestApp;
  let media: MediaServer;
  let port: number;

  beforeAll(async () => {
    media = await startMediaServer({ '/cat.png': send('image/png', pngBytes(64, 64)) });
    dir = await mkdtemp(join(tmpdir(), 'tokenizer-size-'));
    const { programmed } = await writeTestModels(dir);
    const deployment = { engine: 'llama-cpp', model: programmed, threads: 1, context_size: CONTEXT };
    t = await createTestApp({
      models: { 'gen-4.6v': { deployments: [deployment] }, 'gen-4.6': { deployments: [deployment] } },
      reader: { allow_hosts: ['127.0.0.1'] },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
    await media?.close();
    await rm(dir, { recursive: true, force: true });
  });

  // Varied words, so that the count is real tokenizing work.
  const text = (chars: number) => {
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu '.repeat(Math.ceil(chars / 60));
    return words.slice(0, chars);
  };

  it('refuses text past the bound with 1214 naming messages and the limit, before fetching any media', async () => {
    const before = media.connections;
    const content = [
      { type: 'text', text: text(LIMIT + 1) },
      { type: 'image_url', image_url: { url: `${media.origin}/cat.png` } },
    ];
    const res = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6v', messages: [{ role: 'user', content }] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1214, error: { code: '1214' } });
    const message = String(res.body.message);
    expect(message).toContain('messages');
    expect(message).toContain(String(LIMIT));
    expect(message).toContain('chat.max_chars_per_token');
    expect(media.connections).toBe(before);
  });

  it('counts the tools: many long descriptions past the bound are a 1214 naming tools', async () => {
    const tools = Array.from({ length: 64 }, (_, i) => ({
      type: 'function',
      function: { name: `tool_${i}`, description: text(Math.ceil(LIMIT / 64) + 10), parameters: { type: 'object' } },
    }));
    const res = await t.post('/paas/v4/tokenizer', {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'hi' }],
      tools,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1214);
    expect(String(res.body.message)).toContain('Invalid tools');
    expect(String(res.body.message)).toContain(String(LIMIT));
  });

  /** An answer's end, on the clock every thread shares. */
  const now = () => performance.timeOrigin + performance.now();

  const postCount = (body: string): Promise<{ status: number; at: number }> =>
    new Promise((resolve, reject) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/paas/v4/tokenizer',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, at: now() }));
      });
      req.end(body);
    });

  /**
   * /health asked from a thread of its own (on a connection opened beforehand), so that its
   * request does not wait for this thread's event loop, which the server shares.
   */
  const HEALTH_PROBE = `
    const { parentPort, workerData } = require('node:worker_threads');
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () => new Promise((resolve, reject) => {
      const started = performance.timeOrigin + performance.now();
      http.get({ port: workerData.port, host: '127.0.0.1', path: '/health', agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, started, at: performance.timeOrigin + performance.now() }));
      }).on('error', reject);
    });
    get().then(() => {
      parentPort.postMessage('ready');
      parentPort.once('message', () => get().then((r) => { parentPort.postMessage(r); agent.destroy(); }));
    });
  `;

  it('counts text at the bound, and /health answers while several such counts run', async () => {
    const body = JSON.stringify({ model: 'gen-4.6', messages: [{ role: 'user', content: text(LIMIT - 100) }] });
    const alone = await t.post('/paas/v4/tokenizer', body);
    expect(alone.status).toBe(200);
    expect((alone.body.usage as { prompt_tokens: number }).prompt_tokens).toBeGreaterThan(CONTEXT);

    const probe = new Worker(HEALTH_PROBE, { eval: true, workerData: { port } });
    try {
      await new Promise((resolve) => probe.once('message', resolve));
      const started = now();
      const counts = Array.from({ length: 6 }, () => postCount(body));
      const health = new Promise<{ status: number; started: number; at: number }>((resolve) =>
        probe.once('message', resolve),
      );
      // Asked once the first count is answered: the others are being counted or wait their turn.
      void Promise.race(counts).then(() => probe.postMessage('go'));
      const done = await Promise.all(counts);
      const h = await health;
      expect(h.status).toBe(200);
      for (const c of done) expect(c.status).toBe(200);
      const lastCount = Math.max(...done.map((c) => c.at));
      // Measured, not timed: the counts take turns, so /health is answered before the last of them.
      console.info(
        `tokenizer, 6 counts of ${LIMIT - 100} chars: /health answered in ${(h.at - h.started).toFixed(0)} ms; the counts took ${(lastCount - started).toFixed(0)} ms`,
      );
      expect(h.at).toBeLessThan(lastCount);
    } finally {
      await probe.terminate();
    }
  });
});
