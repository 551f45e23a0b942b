import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MisbehavingUpstream, startMisbehavingUpstream } from '../helpers/misbehaving-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A misbehaving upstream through the whole server: an endless SSE line, output that never
 * stops and a stall each end in a clear 1234 before the first byte, or a `network_error` last chunk
 * after it, promptly and with the process's memory flat.
 */

let upstream: MisbehavingUpstream;
let t: TestApp;
let base: string;

beforeAll(async () => {
  upstream = await startMisbehavingUpstream('endless-line');
  t = await createTestApp({
    models: {
      'gen-4.6': {
        deployments: [
          {
            engine: 'openai-compatible',
            base_url: upstream.baseUrl,
            model: 'm',
            timeouts: { idle_ms: 400 },
            limits: { max_event_bytes: 512 * 1024 },
          },
        ],
      },
    },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

async function chat(body: Record<string, unknown>) {
  const res = await fetch(`${base}/paas/v4/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gen-4.6', messages: [{ role: 'user', content: 'Hi' }], ...body }),
  });
  return { status: res.status, text: await res.text() };
}

const lastChunk = (text: string): { choices: { finish_reason?: string }[] } => {
  const events = text.split('\n\n').filter((e) => e.startsWith('data: '));
  expect(events.at(-1)).toBe('data: [DONE]');
  return JSON.parse(events.at(-2)!.slice(6)) as { choices: { finish_reason?: string }[] };
};

describe('upstream replies are bounded, through the server', () => {
  it('an endless SSE line: 502 with 1234 naming limits.max_event_bytes, quickly, memory flat', async () => {
    upstream.mode = 'endless-line';
    const rss = process.memoryUsage().rss;
    const started = performance.now();
    for (let i = 0; i < 5; i++) {
      const { status, text } = await chat({ stream: true });
      expect(status).toBe(502);
      const body = JSON.parse(text) as { code: number; message: string };
      expect(body.code).toBe(1234);
      expect(body.message).toContain('limits.max_event_bytes');
    }
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(process.memoryUsage().rss - rss).toBeLessThan(150 << 20);
  });

  it('output that never stops: the stream ends with a network_error chunk and [DONE]', async () => {
    upstream.mode = 'endless-events';
    const { status, text } = await chat({ stream: true, max_tokens: 8 });
    expect(status).toBe(200);
    expect(lastChunk(text).choices[0]?.finish_reason).toBe('network_error');
  });

  it('an upstream silent after its headers: 502 with 1234 naming timeouts.idle_ms', async () => {
    upstream.mode = 'stall';
    const { status, text } = await chat({ stream: false });
    expect(status).toBe(502);
    expect((JSON.parse(text) as { message: string }).message).toContain('timeouts.idle_ms');
  });

  it('silent after some output: network_error after the text that came', async () => {
    upstream.mode = 'stall-after';
    const { status, text } = await chat({ stream: true });
    expect(status).toBe(200);
    expect(text).toContain('Hello');
    expect(lastChunk(text).choices[0]?.finish_reason).toBe('network_error');
  });
});
