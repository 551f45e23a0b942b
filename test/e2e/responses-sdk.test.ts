import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFTER_TOOL_REPLY, PLAIN_REPLY, THOUGHT } from '../../src/test-models/programmed-model.js';
import { deployment, type E2eServer, startServer } from './support.js';

/** gen-4.6 on the programmed test model; gen-4.5 on its thinking variant. */
const MODEL = 'gen-4.6';
const THINKING = 'gen-4.5';
const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  strict: true,
};
const QUESTION = 'Weather in Paris?';

let server: E2eServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startServer(
    (paths) => ({ [MODEL]: deployment(paths.programmed), [THINKING]: deployment(paths.thinking) }),
    { listen: true },
  );
  client = new OpenAI({ baseURL: `${server.base}/paas/v4`, apiKey: server.t.key, maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
});

type Event = OpenAI.Responses.ResponseStreamEvent;

/** Streams a request through the SDK's helper: every event, and the response it folds them into. */
async function streamed(body: Omit<OpenAI.Responses.ResponseCreateParams, 'stream'>) {
  const stream = client.responses.stream(body);
  const events: Event[] = [];
  stream.on('event', (e) => events.push(e));
  const final = await stream.finalResponse();
  const numbers = events.map((e) => e.sequence_number);
  expect(numbers, 'sequence numbers count up from 0').toEqual(numbers.map((_, i) => i));
  return { events, final, types: events.map((e) => e.type) };
}

const callOf = (response: OpenAI.Responses.Response) => {
  const call = response.output.find((o) => o.type === 'function_call');
  if (call?.type !== 'function_call') throw new Error(`no function call in ${JSON.stringify(response.output)}`);
  return call;
};

describe('official openai SDK: responses on the test models', () => {
  it('answers a plain request', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'Say hello.', store: false });
    expect(response.output_text).toBe(PLAIN_REPLY);
    expect(response.status).toBe('completed');
    expect(response.id).toMatch(/^resp_/);
    expect(response.output.map((o) => o.type)).toEqual(['message']);
    const usage = response.usage!;
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.output_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
    expect(usage.input_tokens_details.cached_tokens).toBeGreaterThanOrEqual(0);
    expect(usage.output_tokens_details.reasoning_tokens).toBe(0);
  });

  it('streams, and the stream helper folds the same response', async () => {
    const { events, final, types } = await streamed({ model: MODEL, input: 'Say hello.', store: false });
    expect(final.output_text).toBe(PLAIN_REPLY);
    expect(types.slice(0, 5)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
    ]);
    expect(types.slice(-4)).toEqual([
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const deltas = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    expect(deltas.join('')).toBe(PLAIN_REPLY);
    expect(final.usage?.output_tokens).toBeGreaterThan(0);
  });

  it('makes a function call and answers its output', async () => {
    const first = await client.responses.create({ model: MODEL, input: QUESTION, tools: [WEATHER], store: false });
    const call = callOf(first);
    expect(call.name).toBe('get_weather');
    expect(call.call_id).not.toBe('');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const second = await client.responses.create({
      model: MODEL,
      tools: [WEATHER],
      store: false,
      input: [
        { role: 'user', content: QUESTION },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' },
      ],
    });
    expect(second.output_text).toBe(AFTER_TOOL_REPLY);
  });

  it('streams a function call round trip', async () => {
    const first = await streamed({ model: MODEL, input: QUESTION, tools: [WEATHER], store: false });
    const call = callOf(first.final);
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const args = first.events.flatMap((e) => (e.type === 'response.function_call_arguments.delta' ? [e.delta] : []));
    expect(args.join('')).toBe(call.arguments);
    const done = first.events.find((e) => e.type === 'response.function_call_arguments.done');
    expect(done).toMatchObject({ arguments: call.arguments, item_id: call.id });
    expect(first.types.at(-1)).toBe('response.completed');

    const second = await streamed({
      model: MODEL,
      tools: [WEATHER],
      store: false,
      input: [
        { role: 'user', content: QUESTION },
        ...first.final.output.map((o) => o as OpenAI.Responses.ResponseInputItem),
        { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' },
      ],
    });
    expect(second.final.output_text).toBe(AFTER_TOOL_REPLY);
  });

  it('answers two calls made in parallel, given back with their outputs', async () => {
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'Weather in Paris and in Rome?' },
      { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call_output', call_id: 'call_a', output: '{"sky":"sunny"}' },
      { type: 'function_call_output', call_id: 'call_b', output: '{"sky":"rain"}' },
    ];
    const whole = await client.responses.create({ model: MODEL, tools: [WEATHER], input, store: false });
    expect(whole.output_text).toBe(AFTER_TOOL_REPLY);
    const { final } = await streamed({ model: MODEL, tools: [WEATHER], input, store: false });
    expect(final.output_text).toBe(AFTER_TOOL_REPLY);
  });

  it('calls a function of a namespace tool (as Codex sends its sub-agent tools) and answers its output', async () => {
    const { strict: _strict, ...inner } = WEATHER;
    const tools: OpenAI.Responses.Tool[] = [
      { type: 'namespace', name: 'weather', description: 'Weather tools.', tools: [inner] },
    ];
    const first = await client.responses.create({ model: MODEL, input: QUESTION, tools, store: false });
    const call = callOf(first);
    expect(call).toMatchObject({ name: 'get_weather', namespace: 'weather' });
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const second = await client.responses.create({
      model: MODEL,
      tools,
      store: false,
      input: [
        { role: 'user', content: QUESTION },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' },
      ],
    });
    expect(second.output_text).toBe(AFTER_TOOL_REPLY);
  });

  it('forces a call with tool_choice and one call at most with parallel_tool_calls: false', async () => {
    const response = await client.responses.create({
      model: MODEL,
      input: 'Say hello.',
      tools: [WEATHER],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      store: false,
    });
    expect(response.output.filter((o) => o.type === 'function_call')).toHaveLength(1);
    expect(JSON.parse(callOf(response).arguments)).toEqual({ city: 'Paris' });
  });

  it('gives the thinking variant’s thought as a reasoning item, with a summary when asked', async () => {
    const plain = await client.responses.create({ model: THINKING, input: 'Say hello.', store: false });
    expect(plain.output.map((o) => o.type)).toEqual(['reasoning', 'message']);
    expect(plain.output_text).toBe(PLAIN_REPLY);
    expect(plain.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);

    const { events, final } = await streamed({
      model: THINKING,
      input: 'Say hello.',
      reasoning: { effort: 'high', summary: 'auto' },
      store: false,
    });
    const reasoning = final.output[0];
    if (reasoning?.type !== 'reasoning') throw new Error(JSON.stringify(final.output));
    expect(reasoning.summary.map((s) => s.text).join('')).toContain(THOUGHT);
    const deltas = events.flatMap((e) => (e.type === 'response.reasoning_summary_text.delta' ? [e.delta] : []));
    expect(deltas.join('')).toBe(reasoning.summary[0]!.text);
    expect(events.some((e) => e.type === 'response.reasoning_summary_text.done')).toBe(true);
    expect(final.output_text).toBe(PLAIN_REPLY);

    const off = await client.responses.create({
      model: THINKING,
      input: 'Say hello.',
      reasoning: { effort: 'minimal' },
      store: false,
    });
    expect(off.output.map((o) => o.type)).toEqual(['message']);
  });

  it('hands the reasoning item back with a tool round trip on the thinking variant', async () => {
    const first = await client.responses.create({ model: THINKING, input: QUESTION, tools: [WEATHER], store: false });
    expect(first.output.map((o) => o.type)).toEqual(['reasoning', 'function_call']);
    const call = callOf(first);
    const second = await client.responses.create({
      model: THINKING,
      tools: [WEATHER],
      store: false,
      input: [
        { role: 'user', content: QUESTION },
        ...first.output.map((o) => o as OpenAI.Responses.ResponseInputItem),
        { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' },
      ],
    });
    expect(second.output_text).toBe(AFTER_TOOL_REPLY);
  });

  it('holds the reply to a JSON schema (text.format), parsed by responses.parse', async () => {
    const schema = {
      type: 'object',
      properties: { greeting: { type: 'string' }, words: { type: 'integer' } },
      required: ['greeting', 'words'],
      additionalProperties: false,
    };
    const response = await client.responses.parse({
      model: MODEL,
      input: 'Greet me as JSON.',
      text: { format: { type: 'json_schema', name: 'greeting', schema, strict: true } },
      store: false,
    });
    const parsed = response.output_parsed as unknown as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['greeting', 'words']);
    expect(typeof parsed['greeting']).toBe('string');
    expect(Number.isInteger(parsed['words'])).toBe(true);

    const object = await client.responses.create({
      model: MODEL,
      input: 'Reply in JSON.',
      text: { format: { type: 'json_object' } },
      store: false,
    });
    expect(() => JSON.parse(object.output_text)).not.toThrow();
  });

  it('stores a response, continues it with previous_response_id, and deletes it', async () => {
    const first = await client.responses.create({ model: MODEL, input: QUESTION, tools: [WEATHER], store: true });
    const call = callOf(first);
    const kept = await client.responses.retrieve(first.id);
    expect(kept.id).toBe(first.id);
    expect(kept.output).toEqual(first.output);

    // Only the new item goes up: the question and the call come from the stored response.
    const second = await client.responses.create({
      model: MODEL,
      previous_response_id: first.id,
      tools: [WEATHER],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' }],
      store: true,
    });
    expect(second.output_text).toBe(AFTER_TOOL_REPLY);
    expect(second.previous_response_id).toBe(first.id);

    // A chain of three: the second's conversation holds the first's.
    const third = await streamed({
      model: MODEL,
      previous_response_id: second.id,
      tools: [WEATHER],
      input: 'Thanks.',
      store: false,
    });
    expect(third.final.output_text).toBe(AFTER_TOOL_REPLY);

    await client.responses.delete(first.id);
    await expect(client.responses.retrieve(first.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    await expect(
      client.responses.create({ model: MODEL, previous_response_id: first.id, input: 'Again.' }),
    ).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });

    const unstored = await client.responses.create({ model: MODEL, input: 'Say hello.', store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('answers at /v1/responses for clients configured with a /v1 base', async () => {
    const v1 = new OpenAI({ baseURL: `${server.base}/v1`, apiKey: server.t.key, maxRetries: 0 });
    const response = await v1.responses.create({ model: MODEL, input: 'Say hello.', store: false });
    expect(response.output_text).toBe(PLAIN_REPLY);
  });

  it('refuses a hosted tool it does not run with a 400 in OpenAI’s shape that names the field', async () => {
    const refusal = client.responses.create({
      model: MODEL,
      input: 'Run ls.',
      tools: [{ type: 'code_interpreter', container: { type: 'auto' } }],
      store: false,
    });
    await expect(refusal).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    await expect(refusal).rejects.toMatchObject({ param: 'tools[0].type' });
  });
});
