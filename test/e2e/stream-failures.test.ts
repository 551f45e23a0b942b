import { Pool } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../src/stores/types.js';
import { ReplayServer, type Reply } from '../engines/openai-compatible/replay-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { rawPost } from './raw-http.js';
import { streamOf } from './support.js';

/**
 * The failure paths of a stream (docs/wire.md, "SSE framing"), at the byte level over a real socket: once the
 * first chunk is out, whatever goes wrong upstream ends the client's stream with a `network_error`
 * last chunk and `data: [DONE]`, the chunked body is closed properly, and the request is recorded.
 */

const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  })}\n\n`;

const HELLO = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello' }), chunk({ content: ', wor' })];
const USAGE = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 };

let upstream: ReplayServer;
let t: TestApp;
let base: string;
let reply: Reply;
const records: UsageRecord[] = [];

beforeAll(async () => {
  upstream = await ReplayServer.start(() => reply);
  t = await createTestApp({
    models: {
      'gen-4.6': {
        deployments: [
          { engine: 'openai-compatible', base_url: `${upstream.url}/v1`, model: 'fake', max_context: 32768 },
        ],
      },
    },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const store = t.services.store;
  const original = store.recordUsage.bind(store);
  vi.spyOn(store, 'recordUsage').mockImplementation(async (batch) => {
    records.push(...batch);
    return original(batch);
  });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});
beforeEach(() => {
  records.length = 0;
});

const BODY = { model: 'gen-4.6', stream: true, messages: [{ role: 'user', content: 'Hi' }] };

/** The stream the client read, checked frame by frame; its usage record once it is written. */
async function streamed(usageKnown = false) {
  const res = await rawPost(base, '/paas/v4/chat/completions', t.key, BODY);
  expect(res.terminated, 'the chunked body ends with its zero-length chunk').toBe(true);
  expect(res.headers['connection'], 'a client that asked to close is not kept alive').toBe('close');
  const chunks = streamOf(res, 'gen-4.6', { usageKnown });
  await vi.waitFor(() => expect(records).toHaveLength(1));
  return { res, chunks, record: records[0]! };
}

const contentOf = (chunks: ReturnType<typeof streamOf>) =>
  chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');

describe('a stream whose upstream fails after the first chunk', () => {
  it('upstream connection cut mid-stream: network_error last chunk, [DONE], a usage record', async () => {
    reply = { pieces: HELLO, cut: true };
    const { chunks, record } = await streamed();
    expect(contentOf(chunks)).toBe('Hello, wor');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('network_error');
    expect(record).toMatchObject({ operation: 'chat.completions', model: 'gen-4.6', status: 200 });
  });

  it('upstream closes without [DONE] and without a finish reason: network_error, [DONE]', async () => {
    reply = { pieces: HELLO };
    const { chunks, record } = await streamed();
    expect(contentOf(chunks)).toBe('Hello, wor');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('network_error');
    expect(record.status).toBe(200);
  });

  it('upstream sends a malformed chunk: what came before, then network_error, [DONE]', async () => {
    reply = {
      pieces: [...HELLO, 'data: {"id":"chatcmpl-1","choices":[{"delta":{"content":\n\n', chunk({ content: 'ld' })],
    };
    const { chunks } = await streamed();
    expect(contentOf(chunks)).toBe('Hello, wor');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('network_error');
  });

  it('upstream reports an error event mid-stream: network_error, [DONE]', async () => {
    reply = { pieces: [...HELLO, 'event: error\ndata: {"error":{"message":"engine crashed","code":500}}\n\n'] };
    const { chunks } = await streamed();
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('network_error');
  });
});

describe('a stream whose events come several to a read', () => {
  // The events of one upstream read go out in one write (server/event-stream.ts, the coalescing
  // writer): the client must see what it sees event by event.
  const events = [...HELLO, chunk({ content: 'ld' }), chunk({ content: '!' }, 'stop'), chunk({}, null, USAGE)];
  const seen = async (pieces: string[], delayMs?: number) => {
    reply = { pieces: [...pieces, 'data: [DONE]\n\n'], ...(delayMs ? { delayMs } : {}) };
    // Each stream's own usage record: wait for the one before to be written, then start afresh.
    await vi.waitFor(() => expect(records.length).toBeLessThanOrEqual(1));
    records.length = 0;
    const { chunks, record } = await streamed(true);
    return {
      texts: chunks.map((c) => c.choices[0]?.delta.content ?? ''),
      finish: chunks.map((c) => c.choices[0]?.finish_reason ?? null),
      usage: chunks.at(-1)!.usage,
      record: { status: record.status, promptTokens: record.promptTokens, completionTokens: record.completionTokens },
    };
  };

  it('the whole stream in one write: the same chunks, in order, as event by event', async () => {
    const apart = await seen(events, 5);
    const together = await seen([events.join('')]);
    expect(together).toEqual(apart);
    expect(together.texts.join('')).toBe('Hello, world!');
    expect(together.finish.at(-1)).toBe('stop');
  });

  it('a malformed event inside one write: what came before it, then network_error', async () => {
    reply = { pieces: [[...HELLO, 'data: {"choices":[{"delta":{"content":\n\n', chunk({ content: 'ld' })].join('')] };
    const { chunks } = await streamed();
    expect(contentOf(chunks)).toBe('Hello, wor');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('network_error');
  });
});

describe('a stream whose upstream ends in other ways', () => {
  it('closes without [DONE] after its finish reason: an ordinary end, with the upstream usage', async () => {
    reply = { pieces: [...HELLO, chunk({ content: 'ld' }, 'stop'), chunk({}, null, USAGE)] };
    const { chunks, record } = await streamed(true);
    expect(contentOf(chunks)).toBe('Hello, world');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
    expect(record).toMatchObject({ status: 200, promptTokens: 7, completionTokens: 3 });
  });

  it('fails before its first chunk: a JSON error body (1234), not a stream', async () => {
    reply = { pieces: ['data: {not json\n\n'] };
    const res = await rawPost(base, '/paas/v4/chat/completions', t.key, BODY);
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    const body = JSON.parse(res.text) as { code: number };
    expect(body.code).toBe(1234);
    expect(res.status).toBeGreaterThanOrEqual(500);
    await vi.waitFor(() => expect(records).toHaveLength(1));
    expect(records[0]!.status).toBe(res.status);
  });
});

describe('the connection of a stream', () => {
  it('stays open for a keep-alive client: two streams over one socket', async () => {
    reply = { pieces: [...HELLO, chunk({ content: 'ld' }, 'stop'), chunk({}, null, USAGE), 'data: [DONE]\n\n'] };
    const pool = new Pool(base, { connections: 1 });
    try {
      let sockets = 0;
      pool.on('connect', () => sockets++);
      for (let i = 0; i < 2; i++) {
        const res = await pool.request({
          path: '/paas/v4/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
          body: JSON.stringify(BODY),
        });
        expect(res.headers['connection']).toBe('keep-alive');
        expect(await res.body.text()).toMatch(/data: \[DONE\]\n\n$/);
      }
      expect(sockets).toBe(1);
      await vi.waitFor(() => expect(records).toHaveLength(2));
    } finally {
      await pool.close();
    }
  });
});

describe('a JSON request', () => {
  it('goes upstream as a JSON request and comes back as one completion', async () => {
    reply = {
      contentType: 'application/json',
      pieces: [
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hello, world' }, finish_reason: 'stop' }],
          usage: USAGE,
        }),
      ],
    };
    const res = await rawPost(base, '/paas/v4/chat/completions', t.key, { ...BODY, stream: false });
    expect(upstream.requests.at(-1)!.body['stream']).toBe(false);
    expect(upstream.requests.at(-1)!.headers['accept']).toBe('application/json');
    expect(res.status).toBe(200);
    const completion = JSON.parse(res.text) as { choices: { message: { content: string } }[]; usage: unknown };
    expect(completion.choices[0]!.message.content).toBe('Hello, world');
    expect(completion.usage).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
    await vi.waitFor(() => expect(records).toHaveLength(1));
    expect(records[0]).toMatchObject({ status: 200, promptTokens: 7, completionTokens: 3 });
  });
});
