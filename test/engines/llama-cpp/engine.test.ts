import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import type { ChatMessage } from '../../../src/engines/chat/types.js';
import { AFTER_TOOL_REPLY, JSON_REPLY, PLAIN_REPLY } from '../../../src/test-models/programmed-model.js';
import { collect, finishOf, request, tempModels, textOf, weatherTool } from './fixture.js';

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

describe('llama.cpp engine on the programmed model', () => {
  it('declares capabilities from the GGUF and its chat template', () => {
    expect(engine.capabilities).toMatchObject({ tools: true, json: true, vision: false, maxContext: 2048 });
  });

  it('answers plain text, finish stop, with promptTokens equal to countTokens', async () => {
    const req = request();
    const parts = await collect(engine, req);
    expect(textOf(parts)).toBe(PLAIN_REPLY);
    const finish = finishOf(parts);
    expect(finish.reason).toBe('stop');
    expect(finish.usage.promptTokens).toBe(await engine.countTokens(req.messages, req.tools));
    expect(finish.usage.completionTokens).toBeGreaterThanOrEqual(6);
  });

  it('JSON mode output always parses', async () => {
    const parts = await collect(engine, request({ responseFormat: 'json_object' }));
    expect(textOf(parts)).toBe(JSON_REPLY);
    expect(JSON.parse(textOf(parts))).toEqual({ reply: PLAIN_REPLY });
  });

  it('calls an offered function, then answers from its result', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Weather in Paris?' }];
    const parts = await collect(engine, request({ messages, tools: [weatherTool] }));
    const start = parts.find((p) => p.type === 'tool-call-start');
    expect(start).toMatchObject({ index: 0, name: 'get_weather' });
    const id = start?.type === 'tool-call-start' ? start.id : '';
    expect(id).toMatch(/^call_[0-9a-f]{24}$/);
    const args = parts.map((p) => (p.type === 'tool-call-delta' ? p.argumentsDelta : '')).join('');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
    expect(parts.filter((p) => p.type === 'tool-call-end')).toHaveLength(1);
    expect(textOf(parts)).toBe('');
    expect(finishOf(parts).reason).toBe('tool_calls');

    messages.push(
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id, type: 'function', function: { name: 'get_weather', arguments: args } }],
      },
      { role: 'tool', tool_call_id: id, content: '{"sky": "sunny"}' },
    );
    const second = await collect(engine, request({ messages, tools: [weatherTool] }));
    expect(textOf(second)).toBe(AFTER_TOOL_REPLY);
    const finish = finishOf(second);
    expect(finish.reason).toBe('stop');
    expect(finish.usage.promptTokens).toBe(await engine.countTokens(messages, [weatherTool]));
    // The second turn shares the first turn's prompt as a prefix.
    expect(finish.usage.cachedTokens).toBeGreaterThan(0);
  });

  it('stops at a stop string, which is not part of the text', async () => {
    const parts = await collect(engine, request({ stop: [' test'] }));
    expect(textOf(parts)).toBe('Hello from the');
    expect(finishOf(parts).reason).toBe('stop');
  });

  it('max tokens ends with finish length', async () => {
    const parts = await collect(engine, request({ maxTokens: 2 }));
    expect(textOf(parts)).toBe('Hello from');
    expect(finishOf(parts)).toMatchObject({ reason: 'length', usage: { completionTokens: 2 } });
  });

  it('reuses the prompt prefix of an earlier turn as cached tokens', async () => {
    const first: ChatMessage[] = [
      { role: 'system', content: 'You are a test.' },
      { role: 'user', content: 'First question, long enough to be worth caching.' },
    ];
    await collect(engine, request({ messages: first }));
    const second: ChatMessage[] = [
      ...first,
      { role: 'assistant', content: PLAIN_REPLY },
      { role: 'user', content: 'Second question.' },
    ];
    const finish = finishOf(await collect(engine, request({ messages: second })));
    expect(finish.usage.cachedTokens).toBeGreaterThanOrEqual(await engine.countTokens(first, []));
    expect(finish.usage.cachedTokens).toBeLessThan(finish.usage.promptTokens);
  });

  it('runs two generations concurrently, both complete', async () => {
    const [a, b] = await Promise.all([
      collect(engine, request()),
      collect(engine, request({ responseFormat: 'json_object' })),
    ]);
    expect(textOf(a)).toBe(PLAIN_REPLY);
    expect(JSON.parse(textOf(b))).toEqual({ reply: PLAIN_REPLY });
    expect(engine.load).toEqual({ available: 2, waiting: 0 });
  });

  it('refuses a prompt longer than the context window with 1261', async () => {
    const huge = request({ messages: [{ role: 'user', content: 'x'.repeat(3000) }] });
    await expect(collect(engine, huge)).rejects.toMatchObject({ code: 1261 });
  });
});
