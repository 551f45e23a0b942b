import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { findLlamaServer, type RunningLlamaServer, startLlamaServer } from '../helpers/llama-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The openai-compatible engine against a real llama.cpp server serving the project's programmed
 * test model: chat, stream with usage, JSON mode, tool calls, thinking, the tokenizer (equal to the
 * upstream's own prompt_tokens), context overflow, a client abort freeing the slot, an idle
 * keep-alive connection, the agent, and the Responses and Anthropic Messages APIs through the
 * official SDKs. Skips, saying why, when no llama-server is built (`scripts/llama-server.sh` builds
 * it once per llama.cpp commit; `.ci/run` does).
 */

const found = findLlamaServer();
const reason = 'reason' in found ? found.reason : '';
if (reason) console.warn(`llama-server suite skipped: ${reason}`);

const MESSAGES = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Hello there, how are you today?' },
];
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  },
];

interface Chunk {
  choices: {
    delta: { content?: string; reasoning_content?: string; tool_calls?: { function: { arguments: string } }[] };
    finish_reason?: string;
  }[];
  usage?: { total_tokens: number };
}

interface Completion {
  choices: {
    finish_reason: string;
    message: {
      content: string;
      reasoning_content?: string;
      tool_calls?: { function: { name: string; arguments: string } }[];
    };
  }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

describe.skipIf(reason !== '')('against a real llama-server', () => {
  let dir: string;
  let plain: RunningLlamaServer;
  let thinking: RunningLlamaServer;
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    const binary = (found as { path: string }).path;
    dir = await mkdtemp(join(tmpdir(), 'llama-server-models-'));
    const models = await writeTestModels(dir);
    [plain, thinking] = await Promise.all([
      startLlamaServer(binary, models.programmed),
      startLlamaServer(binary, models.thinking),
    ]);
    const upstream = (url: string, extra: Record<string, unknown> = {}) => ({
      deployments: [
        { engine: 'openai-compatible', base_url: `${url}/v1`, model: 'programmed', max_context: 2048, ...extra },
      ],
    });
    t = await createTestApp({
      models: {
        'gen-4.6': upstream(plain.url),
        'gen-4.5': upstream(plain.url, { tokenize_url: `${plain.url}/tokenize`, tokenizer_api: 'llama-server' }),
        // Generation that goes on past the end of turn, for the abort test.
        'gen-4.7': upstream(plain.url, { extra_body: { ignore_eos: true } }),
        'gen-5': upstream(thinking.url, { thinking: true }),
      },
      agents: { general_translation: { model: 'gen-4.6' } },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await Promise.all([plain?.stop(), thinking?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const chat = async (body: Record<string, unknown>) => {
    const res = await t.post('/paas/v4/chat/completions', { model: 'gen-4.6', messages: MESSAGES, ...body });
    return { status: res.status, body: res.body as unknown as Completion & { code?: number } };
  };
  const streamText = async (body: Record<string, unknown>) => {
    const res = await fetch(`${base}/paas/v4/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-4.6', messages: MESSAGES, stream: true, ...body }),
    });
    return res.text();
  };
  const chunksOf = (text: string) => {
    const events = text.split('\n\n').filter((e) => e !== '');
    expect(events.at(-1)).toBe('data: [DONE]');
    return events.slice(0, -1).map((e) => JSON.parse(e.slice(6)) as Chunk);
  };

  it('chat: the plain reply, stop, usage', async () => {
    const { status, body } = await chat({});
    expect(status).toBe(200);
    expect(body.choices[0]!.message.content).toBe('Hello from the test model.');
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  it('stream with usage on the last chunk', async () => {
    const chunks = chunksOf(await streamText({}));
    expect(chunks.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe('Hello from the test model.');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage!.total_tokens).toBeGreaterThan(0);
  });

  it('JSON mode: a JSON object (llama-server ignores a bare json_object)', async () => {
    const { status, body } = await chat({
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'Reply in JSON.' }],
    });
    expect(status).toBe(200);
    expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ reply: 'Hello from the test model.' });
  });

  it('a tool call: one call, then the end of the turn', async () => {
    const { status, body } = await chat({ tools: TOOLS, messages: [{ role: 'user', content: 'Weather in Paris?' }] });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.choices[0]!.finish_reason).toBe('tool_calls');
    expect(body.choices[0]!.message.tool_calls).toHaveLength(1);
    expect(JSON.parse(body.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ city: 'Paris' });
  });

  it('tool_stream: the fragments join to the arguments', async () => {
    const chunks = chunksOf(
      await streamText({ tools: TOOLS, tool_stream: true, messages: [{ role: 'user', content: 'Weather in Paris?' }] }),
    );
    const args = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []).map((tc) => tc.function.arguments);
    expect(JSON.parse(args.join(''))).toEqual({ city: 'Paris' });
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  // llama-server reads reasoning only from templates it knows as thinking ones; the thinking test
  // model's is not one, so `<think>…</think>` comes back inside `content`, and the engine splits it.
  it('thinking: reasoning_content before the reply', async () => {
    const { status, body } = await chat({ model: 'gen-5' });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.choices[0]!.message.reasoning_content).toBe('Let me think...');
    expect(body.choices[0]!.message.content).toBe('Hello from the test model.');
    const chunks = chunksOf(await streamText({ model: 'gen-5' }));
    const reasoning = chunks.map((c) => c.choices[0]!.delta.reasoning_content ?? '').join('');
    expect(reasoning).toBe('Let me think...');
  });

  it('responses (official openai SDK): text, a streamed tool round trip, reasoning', async () => {
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'developer', content: 'Be brief.' },
      { role: 'user', content: 'Hello there, how are you today?' },
    ];
    const client = new OpenAI({ baseURL: `${base}/paas/v4`, apiKey: t.key, maxRetries: 0 });
    const plainReply = await client.responses.create({ model: 'gen-4.6', input, store: false });
    expect(plainReply.output_text).toBe('Hello from the test model.');
    expect(plainReply.usage!.input_tokens).toBeGreaterThan(0);

    const weather: OpenAI.Responses.FunctionTool = {
      type: 'function',
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      strict: false,
    };
    const question = { role: 'user' as const, content: 'Weather in Paris?' };
    const first = await client.responses
      .stream({ model: 'gen-4.6', input: [question], tools: [weather], store: true })
      .finalResponse();
    const calls = first.output.filter((o) => o.type === 'function_call');
    expect(calls, JSON.stringify(first.output)).toHaveLength(1);
    const call = calls[0]!;
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const second = await client.responses.create({
      model: 'gen-4.6',
      previous_response_id: first.id,
      tools: [weather],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
      store: false,
    });
    expect(second.output_text).toBe('The tool answered.');

    const thought = await client.responses.create({
      model: 'gen-5',
      input,
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
    });
    expect(thought.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    const reasoning = thought.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary[0]!.text).toBe('Let me think...');
    expect(thought.output_text).toBe('Hello from the test model.');
  });

  it('anthropic messages (official @anthropic-ai/sdk): text, a streamed tool round trip, thinking', async () => {
    const key = await t.newKey({ endpoints: ['coding'] });
    const client = new Anthropic({ baseURL: `${base}/api/anthropic`, apiKey: key, maxRetries: 0 });
    const hello = await client.messages.create({
      model: 'gen-4.6',
      max_tokens: 64,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
    });
    expect(hello.content).toEqual([{ type: 'text', text: 'Hello from the test model.' }]);
    expect(hello.stop_reason).toBe('end_turn');
    expect(hello.usage.input_tokens + (hello.usage.cache_read_input_tokens ?? 0)).toBeGreaterThan(0);

    const weather: Anthropic.Tool = {
      name: 'get_weather',
      description: 'Weather of a city',
      input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await client.messages
      .stream({ model: 'gen-4.6', max_tokens: 64, tools: [weather], messages: [question] })
      .finalMessage();
    expect(first.stop_reason, JSON.stringify(first.content)).toBe('tool_use');
    const uses = first.content.filter((b) => b.type === 'tool_use');
    expect(uses).toHaveLength(1);
    expect(uses[0]!.input).toEqual({ city: 'Paris' });
    const second = await client.messages.create({
      model: 'gen-4.6',
      max_tokens: 64,
      tools: [weather],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: uses[0]!.id, content: '{"sky":"sunny"}' }] },
      ],
    });
    expect(second.content).toEqual([{ type: 'text', text: 'The tool answered.' }]);

    const thought = await client.messages.create({
      model: 'gen-5',
      max_tokens: 256,
      thinking: { type: 'enabled', budget_tokens: 128 },
      messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
    });
    expect(thought.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect((thought.content[0] as Anthropic.ThinkingBlock).thinking).toBe('Let me think...');
    expect((thought.content[1] as Anthropic.TextBlock).text).toBe('Hello from the test model.');
  });

  it('the tokenizer counts what the upstream counts, found or configured', async () => {
    const { body } = await chat({});
    for (const model of ['gen-4.5', 'gen-4.6']) {
      const res = await t.post('/paas/v4/tokenizer', { model, messages: MESSAGES });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((res.body['usage'] as { prompt_tokens: number }).prompt_tokens).toBe(body.usage.prompt_tokens);
    }
    const tools = await t.post('/paas/v4/tokenizer', { model: 'gen-4.6', messages: MESSAGES, tools: TOOLS });
    const called = await chat({ tools: TOOLS });
    expect((tools.body['usage'] as { prompt_tokens: number }).prompt_tokens).toBe(called.body.usage.prompt_tokens);
  });

  it('a prompt over the context: 1261', async () => {
    const { status, body } = await chat({ messages: [{ role: 'user', content: 'lorem ipsum dolor '.repeat(1500) }] });
    expect(status).toBe(400);
    expect(body.code).toBe(1261);
  });

  it('a client that goes away frees the upstream slot', async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/paas/v4/chat/completions`, {
      method: 'POST',
      signal: controller.signal,
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-4.7', messages: MESSAGES, stream: true, max_tokens: 1500 }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    const busy = async () => {
      const slots = (await (await fetch(`${plain.url}/slots`)).json()) as { is_processing: boolean }[];
      return slots.some((s) => s.is_processing);
    };
    expect(await busy()).toBe(true);
    controller.abort();
    await expect.poll(busy, { timeout: 5_000 }).toBe(false);
  });

  it('an idle keep-alive connection that llama-server closed is never a 1234', async () => {
    expect((await chat({ max_tokens: 4 })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect((await chat({ max_tokens: 4 })).status).toBe(200);
  }, 20_000);

  it('the translation agent, on a model with no tokenizer configured', async () => {
    const res = await t.post('/v1/agents', {
      agent_id: 'general_translation',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'The weather is lovely today.\n\nLet us walk.' }] }],
      custom_variables: { target_lang: 'fr' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body['status']).toBe('success');
  });
});
