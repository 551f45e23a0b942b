import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../src/stores/types.js';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { type RecordedRequest, ReplayServer, type Reply } from '../engines/openai-compatible/replay-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { deployment } from './support.js';

/**
 * The Anthropic endpoint over an OpenAI-compatible upstream (replaying vLLM's stream framing) and
 * the embedded engine, through the official SDK and raw sockets: text and a streamed tool call
 * translated both ways, limit refusals in Anthropic's error shape, and a client that leaves mid-stream
 * (the engine's work cancelled, the usage record billing what was produced).
 */

const UPSTREAM_MODEL = 'gen-4.6';
const EMBEDDED_MODEL = 'gen-4.5-air';
const MESSAGES = '/api/anthropic/v1/messages';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-7',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'Qwen/Qwen3-8B',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
const usageChunk = (prompt: number, completion: number) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-7', object: 'chat.completion.chunk', created: 1, model: 'Qwen/Qwen3-8B', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`;

const TEXT_REPLY: Reply = {
  pieces: [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Sunny ' }),
    chunk({ content: 'in Paris.' }),
    chunk({ content: '' }, 'stop'),
    usageChunk(40, 4),
    'data: [DONE]\n\n',
  ],
};
/** vLLM's framing of one tool call: id and name first, the arguments in pieces. */
const TOOL_REPLY: Reply = {
  pieces: [
    chunk({ role: 'assistant', content: '' }),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'chatcmpl-tool-3f9c2a7e5b1d4c08',
          type: 'function',
          function: { name: 'get_weather', arguments: '' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city": ' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
    chunk({}, 'tool_calls'),
    usageChunk(55, 12),
    'data: [DONE]\n\n',
  ],
};

const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

/** The stand-in's tokenizer (vLLM's /tokenize shape): one token per character of the messages' JSON. */
const upstreamCount = (messages: unknown) => JSON.stringify(messages).length;

let dir: string;
let upstream: ReplayServer;
let reply: Reply;
let t: TestApp;
let base: string;
let key: string;
let client: Anthropic;
const records: UsageRecord[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anthropic-upstream-'));
  const paths = await writeTestModels(dir);
  upstream = await ReplayServer.start((request: RecordedRequest) =>
    request.path.endsWith('/tokenize')
      ? {
          contentType: 'application/json',
          pieces: [JSON.stringify({ count: upstreamCount(request.body['messages']) })],
        }
      : reply,
  );
  t = await createTestApp({
    models: {
      // The random model decoded greedily never ends before max_tokens.
      [EMBEDDED_MODEL]: deployment(paths.random, { parallel: 1 }),
      [UPSTREAM_MODEL]: {
        deployments: [
          {
            engine: 'openai-compatible',
            base_url: `${upstream.url}/v1`,
            model: 'Qwen/Qwen3-8B',
            max_context: 32768,
            tokenize_url: `${upstream.url}/tokenize`,
          },
        ],
      },
    },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  key = await t.newKey({ endpoints: ['coding'] });
  client = new Anthropic({ baseURL: `${base}/api/anthropic`, apiKey: key, maxRetries: 0 });
  const store = t.services.store;
  const original = store.recordUsage.bind(store);
  vi.spyOn(store, 'recordUsage').mockImplementation(async (batch) => {
    records.push(...batch);
    return original(batch);
  });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await upstream?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  records.length = 0;
  upstream.requests.length = 0;
});

const chatRequests = () => upstream.requests.filter((r) => r.path.endsWith('/chat/completions'));

describe('Anthropic Messages over an OpenAI-compatible upstream', () => {
  it('answers a text reply with the upstream’s usage, and sends it the system and messages', async () => {
    reply = TEXT_REPLY;
    const m = await client.messages.create({
      model: UPSTREAM_MODEL,
      max_tokens: 64,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    expect(m.content).toEqual([{ type: 'text', text: 'Sunny in Paris.' }]);
    expect(m.stop_reason).toBe('end_turn');
    expect(m.usage).toMatchObject({ input_tokens: 40, output_tokens: 4, cache_read_input_tokens: 0 });
    const sent = chatRequests()[0]!.body;
    expect(sent['messages']).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris?' },
    ]);
  });

  it('streams the upstream’s tool call as a tool_use block, and sends the round trip back as a tool message', async () => {
    reply = TOOL_REPLY;
    const stream = client.messages.stream({
      model: UPSTREAM_MODEL,
      max_tokens: 64,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const m = await stream.finalMessage();
    expect(m.stop_reason).toBe('tool_use');
    expect(m.content).toHaveLength(1);
    const use = m.content[0] as Anthropic.ToolUseBlock;
    expect(use).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } });
    expect(use.id).toMatch(/^toolu_/);
    expect(m.usage).toMatchObject({ input_tokens: 55, output_tokens: 12 });
    const offered = chatRequests()[0]!.body;
    expect(offered['tools']).toEqual([
      {
        type: 'function',
        function: { name: 'get_weather', description: WEATHER.description, parameters: WEATHER.input_schema },
      },
    ]);

    reply = TEXT_REPLY;
    const after = await client.messages.create({
      model: UPSTREAM_MODEL,
      max_tokens: 64,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: m.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '21°C, sunny' }] },
      ],
    });
    expect(after.content).toEqual([{ type: 'text', text: 'Sunny in Paris.' }]);
    const sent = chatRequests()[1]!.body['messages'] as Record<string, unknown>[];
    expect(sent[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: use.id, type: 'function', function: { name: 'get_weather' } }],
    });
    expect(
      JSON.parse((sent[1]!['tool_calls'] as { function: { arguments: string } }[])[0]!.function.arguments),
    ).toEqual({ city: 'Paris' });
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: use.id, content: '21°C, sunny' });
  });
});

describe('limit refusals in Anthropic’s error shape', () => {
  const post = async (k: string, body: Record<string, unknown>) => {
    const res = await fetch(`${base}${MESSAGES}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': k, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  const hello = { model: UPSTREAM_MODEL, max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] };

  it('requests per minute: 429 rate_limit_error with Retry-After and request-id; the SDK raises RateLimitError', async () => {
    reply = TEXT_REPLY;
    const limited = await t.newKey({
      endpoints: ['coding'],
      limits: { concurrent: 0, requests_per_minute: 1, windows: [] },
    });
    expect((await post(limited, hello)).status).toBe(200);
    const refused = await post(limited, hello);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('(code 1303)') },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('request-id')).toBeTruthy();
    const sdk = new Anthropic({ baseURL: `${base}/api/anthropic`, apiKey: limited, maxRetries: 0 });
    await expect(sdk.messages.create(hello as Anthropic.MessageCreateParamsNonStreaming)).rejects.toBeInstanceOf(
      Anthropic.RateLimitError,
    );
  });

  it('a spent usage window: 429 rate_limit_error (1308), for streams too', async () => {
    reply = TEXT_REPLY;
    const windowed = await t.newKey({
      endpoints: ['coding'],
      limits: { concurrent: 0, requests_per_minute: 0, windows: [{ requests: 1, hours: 5 }] },
    });
    expect((await post(windowed, hello)).status).toBe(200);
    const refused = await post(windowed, { ...hello, stream: true });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringContaining('(code 1308)') },
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

/** Posts a streamed message over a socket, reads `events` events, then closes the socket. */
function readThenClose(body: unknown, events: number): Promise<string> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${MESSAGES}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (data: Buffer) => {
          text += data.toString('utf8');
          if (text.split('\n\n').length - 1 >= events) {
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

/**
 * Cuts an embedded-engine stream after `events` events and gives the call's record. The test model
 * writes 1,900 tokens in about a second, so on a loaded machine the whole stream can be written
 * before the client's close is seen (a 200, nothing to cut): then it is tried again, up to 3 times.
 */
async function cutMidGeneration(
  body: { model: string } & Record<string, unknown>,
  events: number,
): Promise<{ text: string; record: UsageRecord }> {
  for (let attempt = 1; ; attempt++) {
    const seen = records.length;
    const text = await readThenClose(body, events);
    const find = () => records.slice(seen).find((r) => r.model === body.model);
    await vi.waitFor(() => expect(find()).toBeDefined(), { timeout: 20_000 });
    const record = find()!;
    if (record.status !== 200 || attempt === 3) return { text, record };
  }
}

/** The record of the call cut short (records of earlier calls may still be arriving). */
async function cutRecord(model: string): Promise<UsageRecord> {
  const find = () => records.find((r) => r.model === model && r.status === 499);
  await vi.waitFor(() => expect(find()).toBeDefined(), { timeout: 20_000, interval: 20 });
  return find()!;
}

describe('a client that leaves mid-stream', () => {
  it('embedded engine: generation stops, the slot is freed, and the record bills what was produced (499)', async () => {
    const messages = [{ role: 'user', content: 'Write a long story about the sea.' }];
    const { text, record } = await cutMidGeneration(
      { model: EMBEDDED_MODEL, max_tokens: 1900, stream: true, messages },
      6,
    );
    expect(text.startsWith('event: message_start\n')).toBe(true);
    expect(record).toMatchObject({ operation: 'anthropic.messages', model: EMBEDDED_MODEL, status: 499 });
    expect(record.promptTokens).toBeGreaterThan(0);
    expect(record.completionTokens).toBeGreaterThan(0);
    expect(record.completionTokens).toBeLessThan(1900);
    // The engine's one sequence (parallel: 1) is free again: the next message is served.
    const next = await client.messages.create({ model: EMBEDDED_MODEL, max_tokens: 4, messages: messages as never });
    expect(next.stop_reason).toBe('max_tokens');
  });

  it('upstream: the upstream request is closed, and the record bills the prompt and the text emitted', async () => {
    reply = {
      contentType: 'text/event-stream',
      pieces: [chunk({ content: 'Once' }), chunk({ content: ' upon' })],
      hang: true,
    };
    const closed = upstream.nextEarlyClose();
    const messages = [{ role: 'user', content: 'Tell a story.' }];
    await readThenClose({ model: UPSTREAM_MODEL, max_tokens: 500, stream: true, messages }, 3);
    await closed;
    const record = await cutRecord(UPSTREAM_MODEL);
    expect(record).toMatchObject({ operation: 'anthropic.messages', model: UPSTREAM_MODEL, status: 499 });
    expect(record.promptTokens).toBeGreaterThan(0);
    expect(record.completionTokens).toBeGreaterThan(0);
  });
});
