import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlamaServerEngine } from '../../../src/engines/chat/llama-server/engine.js';
import { type TestModelPaths, writeTestModels } from '../../../src/test-models/write-test-models.js';
import { runChatEngineContract } from '../../contracts/chat-engine.contract.js';
import { findLlamaServer } from '../../helpers/llama-server.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { collect, gone, isRunning, managed, parentWithChild, request, textOf } from './fixture.js';

/**
 * The managed engine on a real llama-server and the programmed test model: replies whole, streamed
 * and in JSON through the API, a kill -9 survived, nothing left running after close or after the
 * server's own death. Skips, saying why, when no llama-server is built (as the upstream suite does).
 */

const found = findLlamaServer();
const reason = 'reason' in found ? found.reason : '';
if (reason) console.warn(`managed llama-server suite skipped: ${reason}`);
const binary = 'path' in found ? found.path : '';
const REPLY = 'Hello from the test model.';

let dir: string;
let models: TestModelPaths;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'managed-real-'));
  models = await writeTestModels(dir);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(reason !== '')('managed llama-server through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      models: {
        'gen-4.6': {
          deployments: [
            { engine: 'llama-server', model: models.programmed, binary, threads: 1, context_size: 1024, parallel: 2 },
          ],
        },
      },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const chat = (body: Record<string, unknown>) =>
    t.post('/paas/v4/chat/completions', {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
      ...body,
    });

  it('answers whole, with usage', async () => {
    const { status, body } = await chat({});
    expect(status, JSON.stringify(body)).toBe(200);
    const choice = (body['choices'] as { message: { content: string }; finish_reason: string }[])[0]!;
    expect(choice.message.content).toBe(REPLY);
    expect(choice.finish_reason).toBe('stop');
    expect((body['usage'] as { prompt_tokens: number }).prompt_tokens).toBeGreaterThan(0);
  });

  it('streams', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/paas/v4/chat/completions',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        model: 'gen-4.6',
        stream: true,
        messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
      }),
    });
    expect(res.statusCode).toBe(200);
    const events = res.body.split('\n\n').filter((e) => e !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice(6)) as { choices: { delta: { content?: string } }[] });
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe(REPLY);
  });

  it('answers in JSON mode', async () => {
    const { status, body } = await chat({
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'Reply in JSON.' }],
    });
    expect(status, JSON.stringify(body)).toBe(200);
    const content = (body['choices'] as { message: { content: string } }[])[0]!.message.content;
    expect(JSON.parse(content)).toEqual({ reply: REPLY });
  });
});

describe.skipIf(reason !== '')('managed llama-server on the thinking test model', () => {
  it('finds thinking in the chat template and passes the reasoning on before the reply', async () => {
    const engine = await managed(binary, models.thinking).start();
    try {
      expect(engine.capabilities.thinking).toBe(true);
      const parts = await collect(engine, request({ thinking: true }));
      const reasoning = parts.map((p) => (p.type === 'reasoning-delta' ? p.text : '')).join('');
      expect(reasoning).toContain('Let me think...');
      expect(textOf(parts)).toBe(REPLY);
    } finally {
      await engine.close();
    }
  }, 60_000);
});

describe.skipIf(reason !== '')('managed llama-server: crash, restart, shutdown', () => {
  let engine: LlamaServerEngine;
  afterAll(async () => {
    await engine?.close();
  });

  it('starts on the GGUF with its settings', async () => {
    engine = await managed(binary, models.programmed).start();
    // One slot's context: -c 2048 split between -np 2.
    expect(engine.capabilities.maxContext).toBe(1024);
    expect(textOf(await collect(engine, request()))).toBe(REPLY);
    expect(engine.stats().healthy).toBe(true);
  }, 60_000);

  it('answers only requests that carry its key (the loopback port is open to every local process)', async () => {
    const cmdline = readFileSync(`/proc/${engine.pid}/cmdline`, 'utf8').split('\0');
    const port = cmdline[cmdline.indexOf('--port') + 1];
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/v1/models`)).status).toBe(401);
    const chat = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(chat.status).toBe(401);
  });

  it('kill -9: the next request is served after the restart, and health recovers', async () => {
    const first = engine.pid!;
    process.kill(first, 'SIGKILL');
    expect(await gone(first)).toBe(true);
    expect(textOf(await collect(engine, request({ stream: false })))).toBe(REPLY);
    expect(engine.pid).not.toBe(first);
    expect(engine.stats().healthy).toBe(true);
  }, 60_000);

  it('close leaves no llama-server running', async () => {
    const pid = engine.pid!;
    await engine.close();
    expect(isRunning(pid)).toBe(false);
  });

  it('llama-server dies with the server, even one killed with SIGKILL', async () => {
    const { parent, child } = await parentWithChild(binary, models.programmed);
    expect(isRunning(child)).toBe(true);
    process.kill(parent, 'SIGKILL');
    expect(await gone(child)).toBe(true);
  }, 60_000);
});

if (reason === '') {
  runChatEngineContract('llama-server (managed) on the programmed test model', async () => {
    const engine = await managed(binary, models.programmed).start();
    return { engine, close: () => engine.close() };
  });
}
