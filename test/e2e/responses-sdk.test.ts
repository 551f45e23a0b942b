import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AFTER_TOOL_REPLY, PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import { deployment, type E2eServer, startServer } from './support.js';

const MODEL = 'gen-4.6';
const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: true,
};

let server: E2eServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startServer((paths) => ({ [MODEL]: deployment(paths.programmed) }), { listen: true });
  client = new OpenAI({ baseURL: `${server.base}/paas/v4`, apiKey: server.t.key, maxRetries: 0 });
});
afterAll(async () => {
  await server?.close();
});

describe('official openai SDK: responses', () => {
  it('answers a plain request', async () => {
    const response = await client.responses.create({ model: MODEL, input: 'Say hello.', store: false });
    expect(response.output_text).toBe(PLAIN_REPLY);
    expect(response.status).toBe('completed');
    expect(response.id).toMatch(/^resp_/);
    expect(response.usage?.input_tokens).toBeGreaterThan(0);
  });

  it('streams, and the stream helper folds the same response', async () => {
    const stream = client.responses.stream({ model: MODEL, input: 'Say hello.', store: false });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(PLAIN_REPLY);
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
  });

  it('makes a function call and answers its output', async () => {
    const first = await client.responses.create({
      model: MODEL,
      input: 'Weather in Paris?',
      tools: [WEATHER],
      store: false,
    });
    const call = first.output.find((o) => o.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error(JSON.stringify(first.output));
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const second = await client.responses.create({
      model: MODEL,
      tools: [WEATHER],
      store: false,
      input: [
        { role: 'user', content: 'Weather in Paris?' },
        call,
        { type: 'function_call_output', call_id: call.call_id, output: '{"sky":"sunny"}' },
      ],
    });
    expect(second.output_text).toBe(AFTER_TOOL_REPLY);
  });
});
