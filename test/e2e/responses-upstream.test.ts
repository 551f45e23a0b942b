import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordedRequest, ReplayServer, type Reply, sse } from '../engines/openai-compatible/replay-server.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The Responses API on an OpenAI-compatible upstream, through the official SDK: the upstream
 * replays vLLM's recorded shapes (two tool calls in one turn, reasoning in `reasoning_content`),
 * and what it was sent is checked (the conversation, tool choice, one call at most, the schema).
 */

const MODEL = 'gen-4.6';
const TOOLS: OpenAI.Responses.FunctionTool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Current weather',
    parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } },
    strict: false,
  },
  {
    type: 'function',
    name: 'get_time',
    description: 'Current time',
    parameters: { type: 'object', properties: { timezone: { type: 'string' } } },
    strict: false,
  },
];
const CALLS = [
  {
    call_id: 'chatcmpl-tool-3f9c2a7e5b1d4c08a6e0f4b2d9c7a153',
    name: 'get_weather',
    args: { city: '北京', unit: 'celsius' },
  },
  { call_id: 'chatcmpl-tool-b72e0d4f19a84c6e8d3f5a2c0e1b7d96', name: 'get_time', args: { timezone: 'Asia/Shanghai' } },
];
const GREETING = '你好！👋 很高兴见到你。有什么可以帮你的吗？';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-2',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'Qwen/Qwen3-8B',
    choices: [{ index: 0, delta, finish_reason: finish }],
  })}\n\n`;
/** A plain reply in vLLM's framing, with its usage chunk. */
const sunny: Reply = {
  pieces: [
    chunk({ role: 'assistant', content: '' }),
    chunk({ content: 'Sunny, ' }),
    chunk({ content: '21:00.' }),
    chunk({ content: '' }, 'stop'),
    `data: ${JSON.stringify({ id: 'chatcmpl-2', object: 'chat.completion.chunk', created: 1, model: 'Qwen/Qwen3-8B', choices: [], usage: { prompt_tokens: 40, completion_tokens: 4, total_tokens: 44 } })}\n\n`,
    'data: [DONE]\n\n',
  ],
};

let upstream: ReplayServer;
let t: TestApp;
let client: OpenAI;
let reply: Reply;

beforeAll(async () => {
  upstream = await ReplayServer.start(() => reply);
  t = await createTestApp({
    models: {
      [MODEL]: {
        deployments: [
          { engine: 'openai-compatible', base_url: `${upstream.url}/v1`, model: 'Qwen/Qwen3-8B', max_context: 32768 },
        ],
      },
    },
  });
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const coding = await t.newKey({ endpoints: ['coding'] });
  client = new OpenAI({ baseURL: `${base}/coding/paas/v4`, apiKey: coding, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

const sent = (): RecordedRequest['body'] => upstream.requests.at(-1)!.body;
const calls = (response: OpenAI.Responses.Response) =>
  response.output.flatMap((o) => (o.type === 'function_call' ? [o] : []));

describe('official openai SDK: responses on an OpenAI-compatible upstream (vLLM shapes)', () => {
  it('gives two parallel tool calls as two function_call items, whole and streamed', async () => {
    reply = sse('vllm-tool-calls.sse');
    const whole = await client.responses.create({
      model: MODEL,
      input: 'Weather and time?',
      tools: TOOLS,
      store: false,
    });
    expect(whole.status).toBe('completed');
    expect(calls(whole).map((c) => ({ name: c.name, args: JSON.parse(c.arguments) }))).toEqual(
      CALLS.map(({ name, args }) => ({ name, args })),
    );
    // Call ids are the server's own, as on chat completions: unique per call.
    const ids = calls(whole).map((c) => c.call_id);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^call_/);
    expect(whole.usage).toMatchObject({ input_tokens: 215, output_tokens: 48, total_tokens: 263 });
    expect(sent()['tools']).toHaveLength(2);

    reply = sse('vllm-tool-calls.sse');
    const stream = client.responses.stream({ model: MODEL, input: 'Weather and time?', tools: TOOLS, store: false });
    const args = new Map<number, string>();
    const done: string[] = [];
    stream.on('response.function_call_arguments.delta', (e) =>
      args.set(e.output_index, (args.get(e.output_index) ?? '') + e.delta),
    );
    stream.on('response.function_call_arguments.done', (e) => done.push(e.arguments));
    const final = await stream.finalResponse();
    const streamedCalls = calls(final);
    expect(streamedCalls.map((c) => c.name)).toEqual(CALLS.map((c) => c.name));
    expect(done).toEqual(streamedCalls.map((c) => c.arguments));
    expect([...args.values()]).toEqual(streamedCalls.map((c) => c.arguments));
  });

  it('sends both calls back as one assistant turn followed by their tool messages', async () => {
    reply = sun();
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'Weather and time?' },
      ...CALLS.map((c) => ({
        type: 'function_call' as const,
        call_id: c.call_id,
        name: c.name,
        arguments: JSON.stringify(c.args),
      })),
      { type: 'function_call_output', call_id: CALLS[0]!.call_id, output: 'sunny' },
      { type: 'function_call_output', call_id: CALLS[1]!.call_id, output: '21:00' },
    ];
    const response = await client.responses.create({ model: MODEL, input, tools: TOOLS, store: false });
    expect(response.output_text).toBe('Sunny, 21:00.');
    const messages = sent()['messages'] as Record<string, unknown>[];
    expect(messages.map((m) => m['role'])).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect((messages[1]!['tool_calls'] as { id: string }[]).map((c) => c.id)).toEqual(CALLS.map((c) => c.call_id));
    expect(messages.slice(2).map((m) => [m['tool_call_id'], m['content']])).toEqual([
      [CALLS[0]!.call_id, 'sunny'],
      [CALLS[1]!.call_id, '21:00'],
    ]);
  });

  it('gives the upstream’s reasoning_content as a reasoning item with its summary', async () => {
    reply = sse('vllm-reasoning.sse');
    const stream = client.responses.stream({
      model: MODEL,
      input: '你好',
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
    });
    let summary = '';
    stream.on('response.reasoning_summary_text.delta', (e) => {
      summary += e.delta;
    });
    const final = await stream.finalResponse();
    expect(final.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    const reasoning = final.output[0] as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.summary[0]!.text).toBe(summary);
    expect(summary.startsWith('Okay, the user greets me')).toBe(true);
    expect(final.output_text.trim()).toBe(GREETING);
  });

  it('forwards tool_choice, parallel_tool_calls: false and the JSON schema of text.format', async () => {
    reply = sun();
    await client.responses.create({
      model: MODEL,
      input: 'Weather?',
      tools: TOOLS,
      tool_choice: { type: 'function', name: 'get_time' },
      parallel_tool_calls: false,
      store: false,
    });
    expect(sent()).toMatchObject({
      tool_choice: { type: 'function', function: { name: 'get_time' } },
      parallel_tool_calls: false,
    });

    reply = {
      pieces: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: '{"city": "Paris"}' }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
      ],
    };
    const schema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const parsed = await client.responses.parse({
      model: MODEL,
      input: 'A city as JSON.',
      text: { format: { type: 'json_schema', name: 'city', schema, strict: true } },
      store: false,
    });
    expect(parsed.output_parsed).toEqual({ city: 'Paris' });
    expect(sent()['response_format']).toMatchObject({ type: 'json_schema', json_schema: { schema } });
  });

  it('continues a stored response with previous_response_id: the upstream gets the whole conversation', async () => {
    reply = sse('vllm-tool-calls.sse');
    const first = await client.responses.create({
      model: MODEL,
      instructions: 'Be brief.',
      input: 'Weather and time?',
      tools: TOOLS,
      store: true,
    });
    reply = sun();
    const second = await client.responses.create({
      model: MODEL,
      previous_response_id: first.id,
      instructions: 'Be brief.',
      tools: TOOLS,
      input: calls(first).map((c) => ({ type: 'function_call_output' as const, call_id: c.call_id, output: 'ok' })),
    });
    expect(second.output_text).toBe('Sunny, 21:00.');
    const messages = sent()['messages'] as Record<string, unknown>[];
    expect(messages.map((m) => m['role'])).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(messages[1]!['content']).toBe('Weather and time?');
    await client.responses.delete(second.id);
    await client.responses.delete(first.id);
  });

  it('answers an upstream failure before any output as a failed request in OpenAI’s shape', async () => {
    reply = {
      status: 500,
      contentType: 'application/json',
      pieces: ['{"object":"error","message":"boom","code":500}'],
    };
    const failing = client.responses.create({ model: MODEL, input: 'Hi', store: false });
    await expect(failing).rejects.toBeInstanceOf(OpenAI.APIError);
    const error = (await failing.catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBeGreaterThanOrEqual(500);
    expect(typeof (error.error as { message?: unknown }).message).toBe('string');
  });
});

/** A fresh copy of the plain reply (a Reply is read once per request). */
function sun(): Reply {
  return { pieces: [...sunny.pieces] };
}
