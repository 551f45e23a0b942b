import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Closing the app does not wait for connections that carry no request. Without that, a client's
 * spare connection holds the close for the keep-alive timeout the server advertised (72 s by
 * default), far past these tests' own timeout.
 */
let upstream: SlowUpstream | undefined;
let t: TestApp | undefined;

afterEach(async () => {
  await t?.services.close();
  await upstream?.close();
  t = upstream = undefined;
});

async function serving() {
  upstream = await startSlowUpstream({ chunks: 1000, delayMs: 20 });
  t = await createTestApp(upstreamModels(upstream.baseUrl));
  return { app: t.app, base: await t.app.listen({ port: 0, host: '127.0.0.1' }) };
}

describe('closing the app', () => {
  it('closes a connection that has sent nothing yet', async () => {
    const { app, base } = await serving();
    const accepted = new Promise((resolve) => app.server.once('connection', resolve));
    const socket: Socket = connect(Number(new URL(base).port), '127.0.0.1');
    const ended = new Promise((resolve) => socket.once('close', resolve));
    await accepted;
    await app.close();
    await ended;
    expect(socket.destroyed).toBe(true);
  });

  it('closes after a client cut its stream (Node’s fetch then keeps a spare connection)', async () => {
    const { app, base } = await serving();
    const controller = new AbortController();
    const res = await fetch(`${base}/paas/v4/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-4.6', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('word')) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    // The cut reaches the upstream: the app cancelled its work.
    for (let i = 0; i < 200 && upstream!.aborted === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(upstream!.aborted).toBe(1);
    await app.close();
    expect(upstream!.open).toBe(0);
  });
});
