import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import type { ChatMessage, ChatStreamPart } from '../../../src/engines/chat/types.js';
import { AFTER_TOOL_REPLY, PLAIN_REPLY } from '../../../src/test-models/programmed-model.js';
import { collect, finishOf, request, tempModels, textOf, weatherTool } from './fixture.js';

/** What the Responses API asks of a turn beyond the chat body: tool choice, one call at most, a schema. */
let engine: LlamaCppEngine;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const models = await tempModels();
  cleanup = models.cleanup;
  engine = await createLlamaCppEngine({
    modelPath: models.paths.programmed,
    threads: 1,
    contextSize: 2048,
    parallel: 2,
  });
});
afterAll(async () => {
  await engine?.close();
  await cleanup?.();
});

const calls = (parts: ChatStreamPart[]) =>
  parts.flatMap((p) => (p.type === 'tool-call-start' ? [{ index: p.index, name: p.name }] : []));
const argsOf = (parts: ChatStreamPart[], index = 0) =>
  parts.map((p) => (p.type === 'tool-call-delta' && p.index === index ? p.argumentsDelta : '')).join('');

/** A conversation after the tool answered: the model would reply in text. */
const afterTool: ChatMessage[] = [
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      {
        id: 'call_000000000000000000000001',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      },
    ],
  },
  { role: 'tool', tool_call_id: 'call_000000000000000000000001', content: '{"sky": "sunny"}' },
];

const timeTool = {
  name: 'get_time',
  description: 'Current time in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('llama.cpp engine: turn options', () => {
  it('toolChoice auto after a tool result answers in text', async () => {
    expect(textOf(await collect(engine, request({ messages: afterTool, tools: [weatherTool] })))).toBe(
      AFTER_TOOL_REPLY,
    );
  });

  it('toolChoice required makes the model call even where it would answer', async () => {
    const parts = await collect(engine, request({ messages: afterTool, tools: [weatherTool], toolChoice: 'required' }));
    expect(calls(parts)).toEqual([{ index: 0, name: 'get_weather' }]);
    expect(JSON.parse(argsOf(parts))).toEqual({ city: 'Paris' });
    expect(textOf(parts)).toBe('');
    expect(finishOf(parts).reason).toBe('tool_calls');
    // The prompt counted is the one evaluated, opening of the call included.
    expect(finishOf(parts).usage.promptTokens).toBeGreaterThan(await engine.countTokens(afterTool, [weatherTool]));
  });

  it('a named function is the one called', async () => {
    const parts = await collect(
      engine,
      request({
        messages: [{ role: 'user', content: 'Hi' }],
        tools: [weatherTool, timeTool],
        toolChoice: { name: 'get_time' },
      }),
    );
    expect(calls(parts)).toEqual([{ index: 0, name: 'get_time' }]);
    expect(JSON.parse(argsOf(parts))).toEqual({ city: 'Paris' });
  });

  it('a JSON schema holds the reply to its shape', async () => {
    const schema = {
      type: 'object',
      properties: { greeting: { type: 'string' }, words: { type: 'integer' } },
      required: ['greeting', 'words'],
      additionalProperties: false,
    };
    const parts = await collect(engine, request({ responseFormat: 'json_object', jsonSchema: schema }));
    const reply = JSON.parse(textOf(parts)) as Record<string, unknown>;
    expect(Object.keys(reply)).toEqual(['greeting', 'words']);
    expect(typeof reply['greeting']).toBe('string');
    expect(Number.isInteger(reply['words'])).toBe(true);
  });

  it('a schema node-llama-cpp cannot follow is a 1214, before anything is generated', async () => {
    await expect(
      collect(engine, request({ responseFormat: 'json_object', jsonSchema: { oneOf: 5 } })),
    ).rejects.toMatchObject({ code: 1214 });
    // The engine still answers.
    expect(textOf(await collect(engine, request()))).toBe(PLAIN_REPLY);
  });
});
