import { describe, expect, it } from 'vitest';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';
import { upstreamFailure } from '../../../src/errors/errors.js';
import { ScriptedChatEngine } from '../../helpers/scripted-chat-engine.js';
import { anthropicOn, type Event, eventsOf } from './fixture.js';
import { RECORDED_TEXT, RECORDED_THINKING, RECORDED_TOOL_USE } from './recorded-streams.js';
import { grammarProblems, shapeOf } from './stream-grammar.js';

const USAGE = { promptTokens: 40, completionTokens: 9, cachedTokens: 30, reasoningTokens: 0 };

const thinkingThenText: ChatStreamPart[] = [
  { type: 'reasoning-delta', text: 'Let me ' },
  { type: 'reasoning-delta', text: 'think.' },
  { type: 'text-delta', text: 'Hello' },
  { type: 'text-delta', text: ' there.' },
  { type: 'finish', reason: 'stop', usage: USAGE },
];

const twoCalls: ChatStreamPart[] = [
  { type: 'text-delta', text: 'Checking.' },
  { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_weather' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', index: 0 },
  { type: 'tool-call-start', index: 1, id: 'call_b', name: 'get_weather' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Rome"}' },
  { type: 'tool-call-end', index: 1 },
  { type: 'finish', reason: 'tool_calls', usage: USAGE },
];

/** Every recorded event kind's fields are in ours (ours may carry more, e.g. full usage). */
function expectShapesCover(ours: Event[], recorded: Event[]) {
  const mine = shapeOf(ours);
  for (const [kind, keys] of shapeOf(recorded)) {
    const have = mine.get(kind)?.split(',') ?? [];
    for (const key of keys.split(',')) expect(have, `${kind} lacks ${key}`).toContain(key);
  }
}

describe('recorded Anthropic streams', () => {
  it.each([
    ['text', RECORDED_TEXT],
    ['tool use', RECORDED_TOOL_USE],
    ['thinking', RECORDED_THINKING],
  ])('the grammar check passes the recorded %s stream', (_name, text) => {
    expect(grammarProblems(eventsOf(text))).toEqual([]);
  });
});

describe('AnthropicService', () => {
  it('folds thinking, then text, with usage apart from the reused prefix', async () => {
    const a = anthropicOn(new ScriptedChatEngine().replies(thinkingThenText));
    const { message } = await a.complete({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(message.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    expect(message.content[0]).toMatchObject({ thinking: 'Let me think.', signature: expect.any(String) });
    expect(message.content[1]).toEqual({ type: 'text', text: 'Hello there.' });
    expect(message.usage).toEqual({
      input_tokens: 10,
      output_tokens: 9,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 30,
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.stop_reason).toBe('end_turn');
  });

  it('streams thinking and text in the recorded grammar and shapes', async () => {
    const a = anthropicOn(new ScriptedChatEngine().replies(thinkingThenText));
    const { text } = await a.stream({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    const events = eventsOf(text);
    expect(grammarProblems(events)).toEqual([]);
    expectShapesCover(events, eventsOf(RECORDED_THINKING));
    expectShapesCover(events, eventsOf(RECORDED_TEXT));
    const last = events.find((e) => e.type === 'message_delta')!;
    expect(last['usage']).toMatchObject({ input_tokens: 10, output_tokens: 9, cache_read_input_tokens: 30 });
  });

  it('makes parallel tool calls as tool_use blocks, whole and streamed', async () => {
    const a = anthropicOn(new ScriptedChatEngine().replies(twoCalls).replies(twoCalls));
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' } }];
    const { message } = await a.complete({ tools });
    expect(message.content.map((b) => b.type)).toEqual(['text', 'tool_use', 'tool_use']);
    expect(message.content[1]).toMatchObject({ name: 'get_weather', input: { city: 'Paris' } });
    expect(message.content[2]).toMatchObject({ name: 'get_weather', input: { city: 'Rome' } });
    const ids = message.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    for (const id of ids) expect(id).toMatch(/^toolu_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(2);
    expect(message.stop_reason).toBe('tool_use');
    const events = eventsOf((await a.stream({ tools })).text);
    expect(grammarProblems(events)).toEqual([]);
    expectShapesCover(events, eventsOf(RECORDED_TOOL_USE));
  });

  it('hands top_k to the engine with the other sampling settings (0: no cut)', async () => {
    const engine = new ScriptedChatEngine().says(['Hi']).says(['Hi']);
    const a = anthropicOn(engine);
    await a.complete({ top_k: 40, temperature: 0.7, top_p: 0.9 });
    expect(engine.requests[0]!.sampling).toMatchObject({ topK: 40, temperature: 0.7, topP: 0.9 });
    await a.complete({ top_k: 0 });
    expect(engine.requests[1]!.sampling.topK).toBeUndefined();
  });

  it('ends at the first stop sequence, split across pieces, and bills what was made', async () => {
    const engine = new ScriptedChatEngine().says(['Hello', ' wor', 'ld and', ' more']);
    const a = anthropicOn(engine);
    const { message, usage } = await a.complete({ stop_sequences: ['world', 'more'] });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello ' }]);
    expect(message.stop_reason).toBe('stop_sequence');
    expect(message.stop_sequence).toBe('world');
    expect(engine.requests[0]!.stop).toEqual([]);
    await usage.counted();
    expect(message.usage.output_tokens).toBe(usage.completionTokens);
    expect(usage.completionTokens).toBeGreaterThan(0);
  });

  it('maps finish reasons to stop reasons', async () => {
    const a = anthropicOn(new ScriptedChatEngine().says('Hi', 'length').says('Hi', 'sensitive'));
    expect((await a.complete({})).message.stop_reason).toBe('max_tokens');
    expect((await a.complete({})).message.stop_reason).toBe('refusal');
  });

  it('pings while the model is silent, and keeps the grammar', async () => {
    const engine = new ScriptedChatEngine();
    const slow = {
      capabilities: engine.capabilities,
      countTokens: engine.countTokens.bind(engine),
      close: async () => {},
      async *generate(): AsyncGenerator<ChatStreamPart> {
        await new Promise((r) => setTimeout(r, 120));
        yield { type: 'text-delta', text: 'Hi' };
        await new Promise((r) => setTimeout(r, 120));
        yield { type: 'finish', reason: 'stop', usage: USAGE };
      },
    };
    const a = anthropicOn(slow);
    const events = eventsOf((await a.stream({}, { pingMs: 40 })).text);
    expect(grammarProblems(events)).toEqual([]);
    expect(events.filter((e) => e.type === 'ping').length).toBeGreaterThanOrEqual(3);
  });

  it('a failure after the start is an error event, the last one', async () => {
    const logged: unknown[] = [];
    const a = anthropicOn(new ScriptedChatEngine().fails(['Hel'], upstreamFailure('lost the upstream')));
    const events = eventsOf((await a.stream({}, { logged })).text);
    expect(grammarProblems(events)).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'error', error: { type: 'api_error', message: 'lost the upstream' } });
    expect(logged).toHaveLength(1);
  });

  it('a failure before the first part is thrown, for an ordinary error reply', async () => {
    const a = anthropicOn(new ScriptedChatEngine().fails([], upstreamFailure('down')));
    await expect(a.stream({})).rejects.toMatchObject({ code: 1234 });
  });

  it('resolves Claude names through the map, and counts as the engine evaluates', async () => {
    const main = new ScriptedChatEngine().says('Hi');
    const air = new ScriptedChatEngine().says('Hi');
    const a = anthropicOn({ 'gen-4.6': main, 'gen-4.5-air': air });
    const { message, usage } = await a.complete({ model: 'claude-3-5-haiku-latest' });
    expect(message.model).toBe('claude-3-5-haiku-latest');
    expect(usage.model).toBe('gen-4.5-air');
    expect(air.requests).toHaveLength(1);
    const body = { model: 'claude-opus-4-1', messages: [{ role: 'user' as const, content: 'Hi' }] };
    await a.service.countTokens(body, { signal: new AbortController().signal, tenant: 't', usage: usage });
    expect(main.counted).toEqual([{ messages: [{ role: 'user', content: 'Hi' }], tools: [] }]);
  });
});
