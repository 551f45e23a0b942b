import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { type ModelServer, startModelServer } from './model-server.js';

/**
 * `serve`'s background download, end to end through node-llama-cpp's real downloader: a local
 * model host refuses the first request, then sends the file in two halves under test control.
 */

interface Listed {
  id: string;
  state: string;
  progress?: number;
  error?: string;
}

let dir: string;
let host: ModelServer;
let t: TestApp;

const chat = { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 8 };

async function listed(code = 'gen-4.6'): Promise<Listed> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/paas/v4/models',
    headers: { authorization: `Bearer ${t.key}` },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Listed[] }).data.find((m) => m.id === code)!;
}

async function until(what: string, ok: (m: Listed) => boolean, ms = 20_000): Promise<Listed> {
  const end = Date.now() + ms;
  for (;;) {
    const m = await listed();
    if (ok(m)) return m;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last state ${JSON.stringify(m)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-'));
  const paths = await writeTestModels(join(dir, 'source'));
  host = await startModelServer(paths.programmed);
  t = await createTestApp({
    embedded: { default_model: '', models_dir: join(dir, 'models') },
    models: { 'gen-4.6': { deployments: [{ engine: 'llama-cpp', model: host.url, threads: 1, context_size: 512 }] } },
  });
});
afterAll(async () => {
  await t?.close();
  await host?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a remote model downloading in the background', () => {
  it('fails once, answers 1305 meanwhile, retries, reports progress, then serves', async () => {
    await t.services.engines!.warmUp({ download: true, retry: { firstDelayMs: 1500, maxDelayMs: 1500 } });

    const failed = await until('the failed first attempt', (m) => m.state === 'failed');
    // What the download server answered (403) is for the log; key holders see that it failed.
    expect(failed.error).toContain('the download failed');
    expect(failed.error).not.toContain('403');
    expect(failed.error).not.toContain('127.0.0.1');
    const whileFailed = await t.post('/paas/v4/chat/completions', chat);
    expect(whileFailed.status).toBe(503);
    expect(whileFailed.body['code']).toBe(1305);
    expect(Number(whileFailed.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    // Retried with backoff, never remembered as failed: now half of the file has arrived.
    const halfway = await until('half of the file', (m) => m.state === 'downloading' && (m.progress ?? 0) >= 40);
    expect(halfway.progress).toBeLessThan(100);
    const res = await t.post('/paas/v4/chat/completions', chat);
    expect(res.status).toBe(503);
    expect(res.body['code']).toBe(1305);
    expect(res.body['error']).toEqual({ code: '1305', message: res.body['message'] });
    expect(res.body['message']).toMatch(/gen-4\.6 is still downloading \(\d+% done\)/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const tokens = await t.post('/paas/v4/tokenizer', {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(tokens.status).toBe(503);
    expect(tokens.body['code']).toBe(1305);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toMatchObject({ status: 'ok' });

    host.release();
    await until('the finished download', (m) => m.state === 'not_loaded');
    const served = await t.post('/paas/v4/chat/completions', chat);
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect((await listed()).state).toBe('ready');
    expect(host.requests[0]).toBe('GET -');
  }, 60_000);
});

describe('embedded.preload: false', () => {
  it('keeps the lazy behaviour: nothing downloads until the first call, which downloads and serves', async () => {
    const lazyHost = await startModelServer(join(dir, 'source', 'programmed.gguf'), 'lazy.gguf');
    const lazy = await createTestApp({
      embedded: { default_model: '', models_dir: join(dir, 'lazy-models'), preload: false },
      models: {
        'gen-4.6': { deployments: [{ engine: 'llama-cpp', model: lazyHost.url, threads: 1, context_size: 512 }] },
      },
    });
    try {
      await lazy.services.engines!.warmUp({ download: lazy.config.embedded.preload });
      await new Promise((r) => setTimeout(r, 100));
      expect(lazyHost.requests).toEqual([]);
      lazyHost.release();
      // The host refuses the first request: that call fails, and the failure is not remembered.
      const first = await lazy.post('/paas/v4/chat/completions', chat);
      expect(first.status).toBe(502);
      expect(first.body['code']).toBe(1234);
      const second = await lazy.post('/paas/v4/chat/completions', chat);
      expect(second.status, JSON.stringify(second.body)).toBe(200);
    } finally {
      await lazy.close();
      await lazyHost.close();
    }
  }, 60_000);
});
