import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { expectWellFormed } from '../../contracts/chat-engine.contract.js';
import { chatRequest, collect, engineFor, textOf } from './helpers.js';
import { fixtureBytes, json, ReplayServer, sleep, sse, sseEvents } from './replay-server.js';

const signal = () => new AbortController().signal;

describe('openai-compatible engine against recorded vLLM and Ollama shapes', () => {
  let server: ReplayServer;
  let engine: ChatEngine;

  beforeAll(async () => {
    server = await ReplayServer.start(() => sse('vllm-reasoning.sse'));
    engine = engineFor(server.url, { apiKey: 'sk-test' });
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it('sends an OpenAI-style streaming request to the configured path with the key', async () => {
    await collect(engine.generate(chatRequest(), signal()));
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer sk-test');
    expect(sent.headers['accept']).toBe('text/event-stream');
    expect(sent.body).toMatchObject({ model: 'Qwen/Qwen3-8B', stream: true, stream_options: { include_usage: true } });
  });

  it('vLLM: reasoning_content, then text with multi-byte characters, then usage with cached tokens', async () => {
    server.setHandler(() => sse('vllm-reasoning.sse'));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expectWellFormed(parts);
    expect(textOf(parts, 'reasoning-delta')).toBe('Okay, the user greets me in Chinese. I should reply warmly.');
    expect(textOf(parts, 'text-delta')).toBe('\n\n你好！👋 很高兴见到你。有什么可以帮你的吗？');
    expect(parts.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: 14, completionTokens: 27, cachedTokens: 0, reasoningTokens: 0 },
    });
  });

  it('vLLM: two tool calls streamed in fragments', async () => {
    server.setHandler(() => sse('vllm-tool-calls.sse'));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expectWellFormed(parts);
    const starts = parts.filter((p) => p.type === 'tool-call-start');
    expect(starts.map((p) => p.name)).toEqual(['get_weather', 'get_time']);
    const args = (index: number) =>
      parts.map((p) => (p.type === 'tool-call-delta' && p.index === index ? p.argumentsDelta : '')).join('');
    expect(JSON.parse(args(0))).toEqual({ city: '北京', unit: 'celsius' });
    expect(JSON.parse(args(1))).toEqual({ timezone: 'Asia/Shanghai' });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls', usage: { promptTokens: 215 } });
  });

  it('Ollama: reasoning in `reasoning`, role on every delta', async () => {
    server.setHandler(() => sse('ollama-reasoning.sse'));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expectWellFormed(parts);
    expect(textOf(parts, 'reasoning-delta')).toBe('Okay, the user said hello. Respond friendly.');
    expect(textOf(parts, 'text-delta')).toBe('Hello! Ça va 😊 How can I help?');
    expect(parts.at(-1)).toMatchObject({ reason: 'stop', usage: { promptTokens: 11, completionTokens: 35 } });
  });

  it('Ollama: a whole tool call in one chunk', async () => {
    server.setHandler(() => sse('ollama-tool-call.sse'));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expectWellFormed(parts);
    expect(parts.filter((p) => p.type !== 'reasoning-delta')).toEqual([
      { type: 'tool-call-start', index: 0, id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Zürich","unit":"celsius"}' },
      { type: 'tool-call-end', index: 0 },
      {
        type: 'finish',
        reason: 'tool_calls',
        usage: { promptTokens: 162, completionTokens: 41, cachedTokens: 0, reasoningTokens: 0 },
      },
    ]);
  });

  it('Ollama: finish `length`', async () => {
    server.setHandler(() => sse('ollama-length.sse'));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'length' });
  });

  it('relays each part as it arrives, before the upstream has finished', async () => {
    server.setHandler(() => sse('ollama-reasoning.sse', 40));
    const started = Date.now();
    const iterator = engine.generate(chatRequest(), signal())[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toEqual({ type: 'reasoning-delta', text: 'Okay' });
    expect(Date.now() - started).toBeLessThan(500); // the whole body takes ~900 ms
    await iterator.return?.();
  });

  it('answers next() calls made before earlier ones settled, in order', async () => {
    server.setHandler(() => sse('ollama-length.sse', 5));
    const iterator = engine.generate(chatRequest(), signal())[Symbol.asyncIterator]();
    const results = await Promise.all(Array.from({ length: 7 }, () => iterator.next()));
    expect(results.map((r) => (r.done ? 'done' : r.value.type === 'text-delta' ? r.value.text : r.value.type))).toEqual(
      ['Once', ' upon', ' a', ' time', 'finish', 'done', 'done'],
    );
  });

  it('keeps every part, in order, when the consumer is slower than the upstream (backpressure)', async () => {
    const head = sseEvents('ollama-length.sse')[0]!;
    const words = Array.from({ length: 3_000 }, (_, i) => `w${i} `);
    const body = words.map((w) => head.replace('"content":"Once"', `"content":"${w}"`)).join('');
    server.setHandler(() => ({ pieces: [body, ...sseEvents('ollama-length.sse').slice(-3)] }));
    let text = '';
    let count = 0;
    for await (const part of engine.generate(chatRequest({ maxTokens: 4_096 }), signal())) {
      if (part.type === 'text-delta') text += part.text;
      if (++count % 500 === 0) await sleep(20);
    }
    expect(text).toBe(words.join(''));
  });

  it('relays a body written one byte per packet', async () => {
    const bytes = fixtureBytes('vllm-reasoning.sse');
    server.setHandler(() => ({ pieces: Array.from(bytes, (b) => Uint8Array.of(b)) }));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expect(textOf(parts, 'text-delta')).toBe('\n\n你好！👋 很高兴见到你。有什么可以帮你的吗？');
  });

  it('non-stream: a vLLM reply with reasoning_content', async () => {
    const whole = engineFor(server.url, { stream: false });
    server.setHandler(() => json(200, 'vllm-whole.json'));
    const parts = await collect(whole.generate(chatRequest(), signal()));
    expect(server.requests.at(-1)?.body).toMatchObject({ stream: false });
    expect(parts).toEqual([
      { type: 'reasoning-delta', text: 'The user asks for 2+2. That is 4.' },
      { type: 'text-delta', text: '2 + 2 = 4。' },
      {
        type: 'finish',
        reason: 'stop',
        usage: { promptTokens: 17, completionTokens: 23, cachedTokens: 0, reasoningTokens: 0 },
      },
    ]);
    await whole.close();
  });

  it('non-stream: an Ollama reply with a tool call (also when the upstream ignored stream: true)', async () => {
    server.setHandler(() => json(200, 'ollama-whole-tool-call.json'));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expectWellFormed(parts);
    expect(parts.map((p) => p.type)).toEqual([
      'reasoning-delta',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'finish',
    ]);
    expect(parts.at(-1)).toMatchObject({ reason: 'tool_calls', usage: { promptTokens: 158 } });
  });

  it('reuses keep-alive connections across requests', async () => {
    server.setHandler(() => sse('ollama-length.sse'));
    await collect(engine.generate(chatRequest(), signal()));
    const before = server.connections;
    for (let i = 0; i < 5; i++) await collect(engine.generate(chatRequest(), signal()));
    expect(server.connections).toBe(before);
  });
});
