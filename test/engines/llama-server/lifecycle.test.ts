import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlamaServerEngine } from '../../../src/engines/chat/llama-server/engine.js';
import { collect, fakeBinary, gone, isRunning, managed, parentWithChild, request, textOf } from './fixture.js';

/**
 * The managed engine's supervision on a stand-in llama-server (test/helpers/fake-llama-server.mjs),
 * so that it runs wherever Node does; real-llama-server.test.ts runs the same lifecycle on a real one.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'managed-engine-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('managed llama-server on a stand-in', () => {
  let engine: LlamaServerEngine;
  afterAll(async () => {
    await engine?.close();
  });

  it('starts it with the settings and serves whole and streamed replies through the upstream engine', async () => {
    engine = await managed(await fakeBinary(dir), '/models/test.gguf').start();
    // /props of the stand-in reports the context of one slot: -c 2048 split over -np 2.
    expect(engine.capabilities).toMatchObject({ maxContext: 1024, tools: false, thinking: false });
    expect(textOf(await collect(engine, request({ stream: false })))).toBe('Hello from the fake server.');
    const streamed = await collect(engine, request());
    expect(textOf(streamed)).toBe('Hello from the fake server.');
    expect(streamed.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
    expect(await engine.countTokens(request().messages, [])).toBe(3);
    expect(engine.stats()).toEqual({ inFlight: 0, waiting: 0, healthy: true });
  });
});

describe('crash, restart, shutdown', () => {
  it('kill -9 mid-reply: that request fails naming it, the next one is served by a new child', async () => {
    const { start, logged } = managed(await fakeBinary(dir, 'slow'), '/models/test.gguf');
    const engine = await start();
    try {
      const first = engine.pid!;
      const iterator = engine.generate(request(), new AbortController().signal)[Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      process.kill(first, 'SIGKILL');
      const drained = (async () => {
        for (;;) if ((await iterator.next()).done) return;
      })();
      await expect(drained).rejects.toThrow(
        /llama-server was killed by SIGKILL during the request; it is being restarted/,
      );
      expect(textOf(await collect(engine, request({ stream: false })))).toBe('Hello from the fake server.');
      expect(engine.pid).not.toBe(first);
      expect(engine.stats().healthy).toBe(true);
      expect(logged.errors.join('\n')).toContain('stopped serving: it was killed by SIGKILL; restarting in 0 ms');
      expect(logged.infos.join('\n')).toContain('restarted and serving');
    } finally {
      await engine.close();
    }
  });

  it('a request waiting for a restart ends when its client goes', async () => {
    const engine = await managed(await fakeBinary(dir), '/models/test.gguf').start();
    try {
      const first = engine.pid!;
      process.kill(first, 'SIGKILL');
      expect(await gone(first)).toBe(true);
      await new Promise((r) => setTimeout(r, 20));
      // The stand-in answers /health only 100 ms after it starts: the restart is still under way.
      const controller = new AbortController();
      const parts: unknown[] = [];
      const reading = (async () => {
        for await (const part of engine.generate(request(), controller.signal)) parts.push(part);
      })();
      controller.abort();
      await reading;
      expect(parts).toEqual([]);
      expect(engine.stats().healthy).toBe(false);
      const counting = new AbortController();
      const count = engine.countTokens(request().messages, [], counting.signal);
      counting.abort(new Error('client gone'));
      await expect(count).rejects.toThrow('client gone');
      expect(textOf(await collect(engine, request()))).toBe('Hello from the fake server.');
    } finally {
      await engine.close();
    }
  });

  it('a child that keeps dying is restarted after doubling delays, reported down meanwhile, and not after close', async () => {
    const { start, logged } = managed(await fakeBinary(dir, 'dies'), '/models/test.gguf');
    const engine = await start();
    let sawDown = false;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !logged.errors.some((e) => e.includes('restarting in 200 ms'))) {
      sawDown ||= !engine.stats().healthy;
      await new Promise((r) => setTimeout(r, 10));
    }
    await engine.close();
    const delays = logged.errors.map((e) => /restarting in (\d+) ms/.exec(e)?.[1]).filter(Boolean);
    expect(delays.slice(0, 4)).toEqual(['0', '50', '100', '200']);
    expect(sawDown).toBe(true);
    const after = logged.errors.length;
    await new Promise((r) => setTimeout(r, 600));
    expect(logged.errors.length).toBe(after);
  });

  it('a child that cannot start fails the start with what it printed', async () => {
    await expect(managed(await fakeBinary(dir, 'fail'), '/models/test.gguf').start()).rejects.toThrow(
      /exited with code 1 before it was ready; it printed:\nerror: failed to load model/,
    );
  });

  it('close sends SIGTERM, then SIGKILL after the grace period: nothing is left running', async () => {
    for (const mode of ['', 'stubborn'] as const) {
      const engine = await managed(await fakeBinary(dir, mode), '/models/test.gguf', { stopGraceMs: 300 }).start();
      const pid = engine.pid!;
      expect(isRunning(pid)).toBe(true);
      await engine.close();
      expect(isRunning(pid)).toBe(false);
      expect(engine.stats().healthy).toBe(false);
    }
  });

  it('the child dies with its parent, even one killed with SIGKILL', async () => {
    const { parent, child } = await parentWithChild(await fakeBinary(dir), '/models/test.gguf');
    expect(isRunning(child)).toBe(true);
    process.kill(parent, 'SIGKILL');
    expect(await gone(child)).toBe(true);
  });
});
