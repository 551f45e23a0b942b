import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { drain } from '../../src/server/drain.js';
import { ShutdownHooks } from '../../src/services/lifecycle/shutdown-hooks.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const quiet = { info() {}, warn() {} };
let upstream: SlowUpstream | undefined;
let t: TestApp | undefined;

afterEach(async () => {
  await t?.services.close();
  await upstream?.close();
  t = upstream = undefined;
});

/** An app listening on a free port with `gen-4.6` on a slow upstream: chunks × delayMs per stream. */
async function serving(chunks: number, delayMs: number) {
  upstream = await startSlowUpstream({ chunks, delayMs });
  t = await createTestApp(upstreamModels(upstream.baseUrl));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const stream = () =>
    fetch(`${base}/paas/v4/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-4.6', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
  return { app: t.app, base, stream };
}

describe('drain (SIGTERM)', () => {
  it('stops accepting, lets an open stream finish within the grace period, then resolves', async () => {
    const { app, base, stream } = await serving(10, 50);
    const res = await stream();
    expect(res.status).toBe(200);
    const body = res.text();
    const drained = drain(app, { graceMs: 10_000, hooks: new ShutdownHooks(), log: quiet });
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetch(`${base}/health`)).rejects.toThrow();
    expect((await body).trimEnd().endsWith('data: [DONE]')).toBe(true);
    await drained;
  });

  it('cuts the streams still open when the grace period ends', async () => {
    const { app, stream } = await serving(1000, 50);
    const res = await stream();
    const body = res.text().then(
      (text) => text,
      () => 'cut',
    );
    const started = Date.now();
    await drain(app, { graceMs: 300, hooks: new ShutdownHooks(), log: quiet });
    expect(Date.now() - started).toBeLessThan(5000);
    const text = await body;
    expect(text === 'cut' || !text.includes('[DONE]')).toBe(true);
  });

  it('runs the registered shutdown hooks with a signal that aborts at the end of the grace period', async () => {
    const { app } = await serving(1, 1);
    const hooks = new ShutdownHooks();
    const seen: string[] = [];
    hooks.register('quick job', async () => {
      seen.push('quick');
    });
    hooks.register(
      'long job',
      (deadline) =>
        new Promise<void>((resolve) => {
          deadline.addEventListener('abort', () => {
            seen.push('long stopped');
            resolve();
          });
        }),
    );
    const gone = hooks.register('finished job', async () => {
      seen.push('never');
    });
    gone();
    await drain(app, { graceMs: 200, hooks, log: quiet });
    expect(seen.sort()).toEqual(['long stopped', 'quick']);
  });

  it('a second signal (hurry) ends the grace period at once', async () => {
    const { app, stream } = await serving(1000, 50);
    await stream();
    const hurry = new AbortController();
    const started = Date.now();
    const drained = drain(app, { graceMs: 60_000, hooks: new ShutdownHooks(), log: quiet, hurry: hurry.signal });
    setTimeout(() => hurry.abort(), 100);
    await drained;
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
