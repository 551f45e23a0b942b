import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFTER_TOOL_REPLY, PLAIN_REPLY, THOUGHT } from '../../src/test-models/programmed-model.js';
import { deployment, type E2eServer, startServer } from './support.js';

const MODEL = 'gen-4.6';
const THINKING_MODEL = 'gen-5.2';
const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Current weather of a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const hello: Anthropic.MessageParam[] = [{ role: 'user', content: 'Say hello.' }];

let server: E2eServer;
let client: Anthropic;
let key: string;
beforeAll(async () => {
  server = await startServer(
    (paths) => ({
      [MODEL]: deployment(paths.programmed),
      [THINKING_MODEL]: deployment(paths.thinking),
      // Served past the test model's trained 4096 tokens: the window it is served at is the answer.
      'gen-4.7': deployment(paths.programmed, { context_size: 8192, parallel: 1 }),
    }),
    { listen: true },
  );
  key = await server.t.newKey({ endpoints: ['coding'] });
  client = new Anthropic({ baseURL: `${server.base}/api/anthropic`, apiKey: key, maxRetries: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close();
}, 60_000);

describe('official @anthropic-ai/sdk: messages', { timeout: 120_000 }, () => {
  it('answers a plain request, and count_tokens equals its input_tokens', async () => {
    const m = await client.messages.create({ model: MODEL, max_tokens: 64, messages: hello });
    expect(m.id).toMatch(/^msg_/);
    expect(m.type).toBe('message');
    expect(m.role).toBe('assistant');
    expect(m.model).toBe(MODEL);
    expect(m.content).toEqual([{ type: 'text', text: PLAIN_REPLY }]);
    expect(m.stop_reason).toBe('end_turn');
    expect(m.stop_sequence).toBeNull();
    expect(m.usage.output_tokens).toBeGreaterThan(0);
    const prompt = m.usage.input_tokens + (m.usage.cache_read_input_tokens ?? 0);
    expect(prompt).toBeGreaterThan(0);
    expect(m.usage.cache_creation_input_tokens).toBe(0);
    const count = await client.messages.countTokens({ model: MODEL, messages: hello });
    expect(count.input_tokens).toBe(prompt);
  });

  it('takes the key as a Bearer token too, and at /anthropic without /api', async () => {
    const bearer = new Anthropic({
      baseURL: `${server.base}/anthropic`,
      authToken: key,
      apiKey: null,
      maxRetries: 0,
    });
    const m = await bearer.messages.create({ model: MODEL, max_tokens: 16, messages: hello });
    expect(m.content.length).toBeGreaterThan(0);
  });

  it('streams, and the stream helper folds the same message', async () => {
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: hello });
    const types: string[] = [];
    stream.on('streamEvent', (e) => types.push(e.type));
    const m = await stream.finalMessage();
    expect(m.content).toEqual([{ type: 'text', text: PLAIN_REPLY }]);
    expect(m.stop_reason).toBe('end_turn');
    expect(m.usage.output_tokens).toBeGreaterThan(0);
    expect(m.usage.input_tokens).toBeGreaterThan(0);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(types.filter((t) => t !== 'ping' && t !== 'content_block_delta')).toEqual([
      'message_start',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('makes a tool call and answers its result, whole and streamed', async () => {
    const first = await client.messages.create({
      model: MODEL,
      max_tokens: 128,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const call = first.content.find((b) => b.type === 'tool_use');
    if (call?.type !== 'tool_use') throw new Error(JSON.stringify(first.content));
    expect(call.id).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(call.name).toBe('get_weather');
    expect(call.input).toEqual({ city: 'Paris' });
    expect(first.stop_reason).toBe('tool_use');

    const stream = client.messages.stream({
      model: MODEL,
      max_tokens: 128,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    const deltas: string[] = [];
    stream.on('streamEvent', (e) => {
      if (e.type === 'content_block_delta') deltas.push(e.delta.type);
    });
    const streamed = await stream.finalMessage();
    expect(deltas).toContain('input_json_delta');
    expect(streamed.content.find((b) => b.type === 'tool_use')).toMatchObject({ input: { city: 'Paris' } });
    expect(streamed.stop_reason).toBe('tool_use');

    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 C' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: AFTER_TOOL_REPLY }]);
    expect(second.stop_reason).toBe('end_turn');
  });

  it('thinks before it answers when asked, with a signed thinking block first', async () => {
    const m = await client.messages.create({
      model: THINKING_MODEL,
      max_tokens: 256,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: hello,
    });
    expect(m.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const thinking = m.content[0] as Anthropic.ThinkingBlock;
    expect(thinking.thinking).toContain(THOUGHT);
    expect(thinking.signature.length).toBeGreaterThan(0);

    const stream = client.messages.stream({
      model: THINKING_MODEL,
      max_tokens: 256,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: hello,
    });
    const deltas: string[] = [];
    stream.on('streamEvent', (e) => {
      if (e.type === 'content_block_delta') deltas.push(e.delta.type);
    });
    const streamed = await stream.finalMessage();
    expect(streamed.content).toEqual(m.content);
    expect(deltas.indexOf('thinking_delta')).toBeLessThan(deltas.indexOf('signature_delta'));
    expect(deltas.indexOf('signature_delta')).toBeLessThan(deltas.indexOf('text_delta'));

    const off = await client.messages.create({ model: THINKING_MODEL, max_tokens: 256, messages: hello });
    expect(off.content.map((b) => b.type)).toEqual(['text']);
  });

  it('ends at a stop sequence and says which', async () => {
    const m = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      stop_sequences: ['nothing like it', ' test'],
      messages: hello,
    });
    expect(m.content).toEqual([{ type: 'text', text: 'Hello from the' }]);
    expect(m.stop_reason).toBe('stop_sequence');
    expect(m.stop_sequence).toBe(' test');
    expect(m.usage.output_tokens).toBeGreaterThan(0);
  });

  it('stops at max_tokens', async () => {
    const m = await client.messages.create({ model: MODEL, max_tokens: 2, messages: hello });
    expect(m.stop_reason).toBe('max_tokens');
    expect(m.usage.output_tokens).toBe(2);
  });

  it('serves a Claude model name through the model map, and lists models', async () => {
    const m = await client.messages.create({ model: 'claude-sonnet-4-5-20250929', max_tokens: 16, messages: hello });
    expect(m.model).toBe('claude-sonnet-4-5-20250929');
    expect(m.content.length).toBeGreaterThan(0);
    const page = await client.models.list();
    expect(page.data.map((d) => d.id)).toEqual(expect.arrayContaining([MODEL, THINKING_MODEL]));
    // Each code with the context window of the deployment serving it, and an output cap within it.
    const windows = Object.fromEntries(page.data.map((d) => [d.id, d.max_input_tokens]));
    expect(windows).toEqual({ [MODEL]: 2048, [THINKING_MODEL]: 2048, 'gen-4.7': 8192 });
    for (const d of page.data) expect(d.max_tokens, d.id).toBeLessThanOrEqual(d.max_input_tokens!);
    const info = await client.models.retrieve('claude-sonnet-4-5-20250929');
    expect(info).toMatchObject({ id: 'claude-sonnet-4-5-20250929', type: 'model', max_input_tokens: 8192 });
    expect(await client.models.retrieve('gen-4.7')).toMatchObject({ id: 'gen-4.7', max_input_tokens: 8192 });
  });

  it('answers errors in Anthropic shape, as the SDK reads them', async () => {
    const bad = new Anthropic({ baseURL: `${server.base}/api/anthropic`, apiKey: 'nope.nope', maxRetries: 0 });
    const denied = await bad.messages.create({ model: MODEL, max_tokens: 8, messages: hello }).catch((e) => e);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect(denied.error).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(denied.requestID).toMatch(/^\d{14}[0-9a-f]{16}$/);

    const general = new Anthropic({ baseURL: `${server.base}/api/anthropic`, apiKey: server.t.key, maxRetries: 0 });
    const scope = await general.messages.create({ model: MODEL, max_tokens: 8, messages: hello }).catch((e) => e);
    expect(scope).toBeInstanceOf(Anthropic.PermissionDeniedError);

    const missing = await client.messages
      .create({ model: MODEL, messages: hello } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e) => e);
    expect(missing).toBeInstanceOf(Anthropic.BadRequestError);
    expect(missing.error.error).toMatchObject({ type: 'invalid_request_error' });
    expect(missing.error.error.message).toContain('max_tokens');
  });
});
