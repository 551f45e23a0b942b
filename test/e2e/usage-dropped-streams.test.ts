import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../src/engines/chat/types.js';
import type { UsageRecord } from '../../src/stores/types.js';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { type RecordedRequest, ReplayServer, type Reply } from '../engines/openai-compatible/replay-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { agentBody } from './agents-support.js';
import { deployment } from './support.js';

/**
 * A stream that does not end with its engine's figures is billed what it used: the prompt's tokens
 * once evaluated and the completion's as emitted, whether the client closed its socket, the upstream
 * failed, or the agent's calls were cut off. Over real sockets, read from the usage records.
 */

const CHAT = '/paas/v4/chat/completions';
const USER: ChatMessage[] = [{ role: 'user', content: 'Write a long story about the sea.' }];

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'fake',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;

/** The stand-in upstream's tokenizer (vLLM's /tokenize shape): one token per character of the messages' JSON. */
const upstreamCount = (messages: unknown) => JSON.stringify(messages).length;

let dir: string;
let upstream: ReplayServer;
let streamReply: Reply;
let t: TestApp;
let base: string;
const records: UsageRecord[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'usage-dropped-'));
  const paths = await writeTestModels(dir);
  upstream = await ReplayServer.start((request: RecordedRequest) =>
    request.path.endsWith('/tokenize')
      ? {
          contentType: 'application/json',
          pieces: [JSON.stringify({ count: upstreamCount(request.body['messages']) })],
        }
      : streamReply,
  );
  t = await createTestApp({
    models: {
      // The random model decoded greedily never ends before max_tokens.
      'gen-4.5-air': deployment(paths.random, { parallel: 1 }),
      'gen-4.7': deployment(paths.programmed),
      'gen-4.6': {
        deployments: [
          {
            engine: 'openai-compatible',
            base_url: `${upstream.url}/v1`,
            model: 'fake',
            max_context: 32768,
            tokenize_url: `${upstream.url}/tokenize`,
          },
        ],
      },
    },
    agents: { general_translation: { piece_tokens: 200, max_input_chars: 5000 } },
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
  await t?.close();
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  records.length = 0;
});

/**
 * Posts `body` over a socket, reads `events` server-sent events (or until `events` says the text
 * read is enough), then closes the socket.
 */
function readThenClose(path: string, body: unknown, events: number | ((text: string) => boolean)): Promise<string> {
  const enough = typeof events === 'number' ? (text: string) => text.split('\n\n').length - 1 >= events : events;
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${t.key}`,
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (data: Buffer) => {
          text += data.toString('utf8');
          if (enough(text)) {
            req.destroy();
            resolve(text);
          }
        });
        res.on('end', () => reject(new Error(`the stream ended before ${events} events: ${text}`)));
      },
    );
    req.on('error', (err) => {
      if (!req.destroyed) reject(err);
    });
    req.end(payload);
  });
}

async function theRecord(): Promise<UsageRecord> {
  await vi.waitFor(() => expect(records).toHaveLength(1), { timeout: 20_000, interval: 20 });
  return records[0]!;
}

describe('a dropped stream is billed what it used', () => {
  it('chat on the embedded engine: the client closes its socket mid-stream (499)', async () => {
    const body = { model: 'gen-4.5-air', stream: true, messages: USER, max_tokens: 1900, do_sample: false };
    const text = await readThenClose(CHAT, body, 6);
    expect(text.startsWith('data: {')).toBe(true);
    const record = await theRecord();
    const engine = await t.services.chat!.engineFor('gen-4.5-air');
    expect(record).toMatchObject({ operation: 'chat.completions', model: 'gen-4.5-air', status: 499 });
    expect(record.promptTokens).toBe(await engine.countTokens(USER, []));
    // At least the five content chunks the client read; far from the 1900 asked for.
    expect(record.completionTokens).toBeGreaterThanOrEqual(5);
    expect(record.completionTokens).toBeLessThan(1900);
  });

  it("chat through an upstream that fails mid-stream: the prompt and the emitted text, by the upstream's tokenizer", async () => {
    streamReply = {
      contentType: 'text/event-stream',
      pieces: [chunk('Hello'), chunk(', world'), chunk('!')],
      cut: true,
    };
    const res = await fetch(`${base}${CHAT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ model: 'gen-4.6', stream: true, messages: USER }),
    });
    expect(await res.text()).toContain('"finish_reason":"network_error"');
    const record = await theRecord();
    expect(record).toMatchObject({ model: 'gen-4.6', status: 200, promptTokens: upstreamCount(USER) });
    const emitted =
      upstreamCount([{ role: 'assistant', content: 'Hello, world!' }]) -
      upstreamCount([{ role: 'assistant', content: '' }]);
    expect(record.completionTokens).toBe(emitted);
  });

  it("chat through an upstream that stalls: the client's socket closed while it waits", async () => {
    streamReply = { contentType: 'text/event-stream', pieces: [chunk('Once'), chunk(' upon')], hang: true };
    await readThenClose(CHAT, { model: 'gen-4.6', stream: true, messages: USER }, 2);
    const record = await theRecord();
    expect(record).toMatchObject({ status: 499, promptTokens: upstreamCount(USER) });
    expect(record.completionTokens).toBeGreaterThan(0);
  });

  it("an agent's stream: the calls made and the one cut short", async () => {
    const paragraph = (i: number) => `Paragraph ${i} says that the weather is lovely and we should walk today.`;
    const long = Array.from({ length: 10 }, (_, i) => paragraph(i)).join('\n\n');
    const body = {
      ...agentBody({ strategy: 'reflection' }),
      messages: [{ role: 'user', content: long }],
      stream: true,
    };
    await readThenClose('/v1/agents', body, 1);
    const record = await theRecord();
    expect(record).toMatchObject({ operation: 'agents', model: 'gen-4.7', status: 499 });
    // The first piece took three calls (reflection) before its chunk went out.
    expect(record.promptTokens).toBeGreaterThan(3 * 20);
    expect(record.completionTokens).toBeGreaterThan(0);
  });

  it('Responses on the embedded engine: the client closes its socket mid-stream (499)', async () => {
    const body = { model: 'gen-4.5-air', stream: true, input: USER, max_output_tokens: 1900, temperature: 0 };
    const deltas = (text: string) => text.split('event: response.output_text.delta').length - 1;
    const text = await readThenClose('/v1/responses', body, (read) => deltas(read) >= 5);
    expect(text.startsWith('event: response.created')).toBe(true);
    const record = await theRecord();
    const engine = await t.services.chat!.engineFor('gen-4.5-air');
    expect(record).toMatchObject({ operation: 'responses.create.v1', model: 'gen-4.5-air', status: 499 });
    expect(record.promptTokens).toBe(await engine.countTokens(USER, []));
    // At least the five deltas the client read; far from the 1900 asked for.
    expect(record.completionTokens).toBeGreaterThanOrEqual(5);
    expect(record.completionTokens).toBeLessThan(1900);
  });

  it('Responses through an upstream that stalls: the prompt and the emitted text, by its tokenizer (499)', async () => {
    streamReply = { contentType: 'text/event-stream', pieces: [chunk('Once'), chunk(' upon')], hang: true };
    await readThenClose('/v1/responses', { model: 'gen-4.6', stream: true, input: USER }, (read) =>
      read.includes('"delta":" upon"'),
    );
    const record = await theRecord();
    expect(record).toMatchObject({ operation: 'responses.create.v1', model: 'gen-4.6', status: 499 });
    expect(record.promptTokens).toBe(upstreamCount(USER));
    const emitted =
      upstreamCount([{ role: 'assistant', content: 'Once upon' }]) -
      upstreamCount([{ role: 'assistant', content: '' }]);
    expect(record.completionTokens).toBe(emitted);
  });

  it('chat through an upstream that stalls before its first token: the client leaves, the prompt is billed (499)', async () => {
    // The upstream takes the prompt (its reply's head is sent) and is still evaluating it.
    streamReply = { contentType: 'text/event-stream', pieces: [], hang: true };
    const asked = upstream.requests.length;
    const closed = upstream.nextEarlyClose();
    const client = new AbortController();
    const sent = fetch(`${base}${CHAT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ model: 'gen-4.6', stream: true, messages: USER }),
      signal: client.signal,
    });
    await vi.waitFor(() => expect(upstream.requests.length).toBeGreaterThan(asked), { timeout: 10_000, interval: 10 });
    // The reply's head travels back to the server over loopback before the client leaves.
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.abort();
    await expect(sent).rejects.toThrow();
    await closed;
    const record = await theRecord();
    expect(record).toMatchObject({
      model: 'gen-4.6',
      status: 499,
      promptTokens: upstreamCount(USER),
      completionTokens: 0,
    });
  });
});
