import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createZhipu } from 'zhipu-ai-provider';
import { AFTER_TOOL_REPLY, PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import { deployment, type E2eServer, startServer, TOOL_CALL_ID } from './support.js';

const MODEL = 'gen-4.6';
const WEATHER: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

let server: E2eServer;
let baseURL: string;
beforeAll(async () => {
  server = await startServer((paths) => ({ [MODEL]: deployment(paths.programmed) }), { listen: true });
  baseURL = `${server.base}/paas/v4`;
});
afterAll(async () => {
  await server?.close();
});

describe('official openai SDK against the running server', () => {
  const client = () => new OpenAI({ baseURL, apiKey: server.t.key, maxRetries: 0 });

  it('completes a streamed chat (chunks and the stream helper)', async () => {
    const chunks = await client().chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Say hello.' },
      ],
    });
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of chunks) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(PLAIN_REPLY);
    expect(finish).toBe('stop');

    const stream = client().chat.completions.stream({ model: MODEL, messages: [{ role: 'user', content: 'Hi' }] });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe(PLAIN_REPLY);
    expect(final.choices[0]?.finish_reason).toBe('stop');
  });

  it('completes a tool call, streamed with tool_stream and whole, and the round trip', async () => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris?' },
    ];
    const stream = client().chat.completions.stream({
      model: MODEL,
      messages,
      tools: [WEATHER],
      // A platform extension: the SDK sends unknown body fields as they are.
      tool_stream: true,
    });
    const streamed = await stream.finalChatCompletion();
    const streamedCall = streamed.choices[0]?.message.tool_calls?.[0];
    expect(streamed.choices[0]?.finish_reason).toBe('tool_calls');
    expect(streamedCall?.type === 'function' && streamedCall.function.name).toBe('get_weather');

    const whole = await client().chat.completions.create({ model: MODEL, messages, tools: [WEATHER] });
    const message = whole.choices[0]!.message;
    const call = message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error(`no function call: ${JSON.stringify(message)}`);
    expect(call.id).toMatch(TOOL_CALL_ID);
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });

    messages.push(message, { role: 'tool', tool_call_id: call.id, content: '{"sky":"sunny"}' });
    const answer = await client().chat.completions.create({ model: MODEL, messages, tools: [WEATHER] });
    expect(answer.choices[0]?.message.content).toBe(AFTER_TOOL_REPLY);
  });
});

describe('zhipu-ai-provider (Vercel ai SDK) against the running server', () => {
  const model = () => createZhipu({ baseURL, apiKey: server.t.key })(MODEL);
  const getWeather = tool({
    description: 'Current weather of a city',
    inputSchema: jsonSchema<{ city: string }>({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    }),
    execute: async ({ city }) => ({ city, sky: 'sunny' }),
  });

  it('streamText completes a streamed chat', async () => {
    const result = streamText({ model: model(), prompt: 'Say hello.', maxRetries: 0 });
    expect(await result.text).toBe(PLAIN_REPLY);
    expect(await result.finishReason).toBe('stop');
  });

  it('generateText with a tool: the call, its result, then the reply', async () => {
    const result = await generateText({
      model: model(),
      prompt: 'Weather in Paris?',
      tools: { getWeather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    const [first] = result.steps;
    expect(first?.toolCalls[0]).toMatchObject({ toolName: 'getWeather', input: { city: 'Paris' } });
    expect(first?.toolResults[0]).toMatchObject({ toolName: 'getWeather', output: { city: 'Paris', sky: 'sunny' } });
    expect(result.text).toBe(AFTER_TOOL_REPLY);
  });

  it('streamText with a tool streams the call and then the reply', async () => {
    const result = streamText({
      model: model(),
      prompt: 'Weather in Paris?',
      tools: { getWeather },
      stopWhen: stepCountIs(3),
      maxRetries: 0,
    });
    expect(await result.text).toBe(AFTER_TOOL_REPLY);
    const steps = await result.steps;
    expect(steps[0]?.toolCalls[0]).toMatchObject({ toolName: 'getWeather', input: { city: 'Paris' } });
  });
});
