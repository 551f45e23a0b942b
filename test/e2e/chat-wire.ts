import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { AFTER_TOOL_REPLY, JSON_REPLY, PLAIN_REPLY, THOUGHT } from '../../src/test-models/programmed-model.js';
import type { TestModelPaths } from '../../src/test-models/write-test-models.js';
import {
  type Chunk,
  type Completion,
  completionOf,
  deployment,
  type E2eServer,
  finishOf,
  joined,
  type Send,
  streamOf,
  TOOL_CALL_ID,
} from './support.js';

const CHAT = '/paas/v4/chat/completions';
/** gen-4.6 (defaults temperature 1, top_p 0.95; tool_stream) on the programmed model. */
const MODEL = 'gen-4.6';
/** gen-4.5 on the thinking variant. */
const THINKING = 'gen-4.5';
const MESSAGES = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say hello.' },
];
const WEATHER = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather of a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};
const TOOL_QUESTION = [{ role: 'user', content: 'Weather in Paris?' }];

/**
 * The chat wire format of docs/wire.md, "Chat completions" end to end (route → service → real llama.cpp runtime on
 * the programmed test models), through `app.inject` or a real socket of a server on CHAT_MODELS.
 */
export const CHAT_MODELS = (paths: TestModelPaths) => ({
  [MODEL]: deployment(paths.programmed),
  [THINKING]: deployment(paths.thinking),
});

export function describeChatWire(transport: 'inject' | 'socket', server: () => E2eServer): void {
  describe(`chat completions end to end through ${transport === 'inject' ? 'app.inject' : 'a real socket'}`, () => {
    let send: Send;
    beforeAll(() => {
      send = transport === 'inject' ? server().inject : server().socket;
    });

    const chat = async (body: Record<string, unknown>, model = MODEL): Promise<Completion> =>
      completionOf(await send(CHAT, { model, ...body }), model);
    const stream = async (body: Record<string, unknown>, model = MODEL): Promise<Chunk[]> =>
      streamOf(await send(CHAT, { model, stream: true, ...body }), model);
    const tokenizerCount = async (body: Record<string, unknown>, model = MODEL): Promise<number> => {
      const res = await send('/paas/v4/tokenizer', { model, ...body });
      expect(res.status, res.text).toBe(200);
      return (JSON.parse(res.text) as { usage: { prompt_tokens: number } }).usage.prompt_tokens;
    };

    it('plain chat at the model defaults: the fixed reply, request_id = id, usage = tokenizer count', async () => {
      const body = await chat({ messages: MESSAGES, max_tokens: 64 });
      expect(body.request_id).toBe(body.id);
      expect(body.choices[0]).toEqual({
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: PLAIN_REPLY },
      });
      expect(body.usage.prompt_tokens).toBe(await tokenizerCount({ messages: MESSAGES }));
      expect(body.usage.completion_tokens).toBeGreaterThan(0);
      expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(0);
    });

    it('echoes a sent request_id beside its own 30-character id', async () => {
      const requestId = `e2e-${randomUUID()}`;
      const body = await chat({ messages: MESSAGES, request_id: requestId });
      expect(body.request_id).toBe(requestId);
      expect(body.id).toHaveLength(30);
      expect(body.id).not.toBe(requestId);
    });

    it('streams the same reply, byte-exact chunks, usage = tokenizer count', async () => {
      const res = await send(CHAT, { model: MODEL, stream: true, messages: MESSAGES });
      const chunks = streamOf(res, MODEL);
      expect(joined(chunks, 'content')).toBe(PLAIN_REPLY);
      expect(joined(chunks, 'reasoning_content')).toBe('');
      expect(finishOf(chunks)).toBe('stop');
      const [first] = chunks as [Chunk];
      const text = first.choices[0]!.delta.content!;
      expect(
        res.text.startsWith(
          `data: {"id":"${first.id}","created":${first.created},"object":"chat.completion.chunk","model":"${MODEL}",` +
            `"choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(text)}}}]}\n\n`,
        ),
      ).toBe(true);
      expect(res.text).not.toMatch(/^(event|id|retry):/m);
      expect(chunks.at(-1)!.usage!.prompt_tokens).toBe(await tokenizerCount({ messages: MESSAGES }));
    });

    it('JSON mode answers JSON that parses, whole and streamed', async () => {
      const messages = [{ role: 'user', content: 'Give a JSON object about Paris.' }];
      const body = await chat({ messages, response_format: { type: 'json_object' }, max_tokens: 200 });
      expect(body.choices[0]!.message.content).toBe(JSON_REPLY);
      expect(JSON.parse(body.choices[0]!.message.content)).toEqual({ reply: PLAIN_REPLY });
      const chunks = await stream({ messages, response_format: { type: 'json_object' } });
      expect(JSON.parse(joined(chunks, 'content'))).toEqual({ reply: PLAIN_REPLY });
    });

    it('tool-call round trip: a call, then the plain reply from its result; usage = tokenizer count', async () => {
      const first = await chat({ messages: TOOL_QUESTION, tools: [WEATHER] });
      const choice = first.choices[0]!;
      expect(choice.finish_reason).toBe('tool_calls');
      const calls = choice.message.tool_calls ?? [];
      expect(calls).toHaveLength(1);
      expect(Object.keys(calls[0]!)).toEqual(['id', 'index', 'type', 'function']);
      expect(calls[0]).toEqual({
        id: expect.stringMatching(TOOL_CALL_ID),
        index: 0,
        type: 'function',
        function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
      });
      expect(first.usage.prompt_tokens).toBe(await tokenizerCount({ messages: TOOL_QUESTION, tools: [WEATHER] }));

      // Sent back as the SDKs return it: content "" and tool_calls[].index included.
      const messages = [
        ...TOOL_QUESTION,
        choice.message,
        { role: 'tool', tool_call_id: calls[0]!.id, content: '{"sky": "sunny", "celsius": 21}' },
      ];
      const second = await chat({ messages, tools: [WEATHER] });
      expect(second.choices[0]).toEqual({
        index: 0,
        finish_reason: 'stop',
        message: { role: 'assistant', content: AFTER_TOOL_REPLY },
      });
      // The tokenizer takes no tool messages (spec); the turn extends the first one's cached prompt.
      expect(second.usage.prompt_tokens).toBeGreaterThan(first.usage.prompt_tokens);
      expect(second.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(0);

      const streamed = await stream({ messages, tools: [WEATHER] });
      expect(joined(streamed, 'content')).toBe(AFTER_TOOL_REPLY);
      expect(finishOf(streamed)).toBe('stop');
    });

    it('streams a tool call without tool_stream as one whole chunk, without role', async () => {
      const res = await send(CHAT, { model: MODEL, stream: true, messages: TOOL_QUESTION, tools: [WEATHER] });
      const chunks = streamOf(res, MODEL);
      expect(chunks).toHaveLength(2);
      const [call] = chunks as [Chunk];
      const id = call.choices[0]!.delta.tool_calls?.[0]?.id ?? '';
      expect(id).toMatch(TOOL_CALL_ID);
      expect(res.text.split('\n\n')[0]).toBe(
        `data: {"id":"${call.id}","created":${call.created},"object":"chat.completion.chunk","model":"${MODEL}",` +
          `"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"${id}","type":"function",` +
          `"function":{"name":"get_weather","arguments":${JSON.stringify('{"city":"Paris"}')}}}]}}]}`,
      );
      expect(finishOf(chunks)).toBe('tool_calls');
    });

    it('with tool_stream every fragment repeats id, type and name; the pieces join to the arguments', async () => {
      const chunks = await stream({ messages: TOOL_QUESTION, tools: [WEATHER], tool_stream: true });
      const fragments = chunks.slice(0, -1).map((c) => {
        expect(c.choices[0]!.delta.role).toBeUndefined();
        const calls = c.choices[0]!.delta.tool_calls ?? [];
        expect(calls).toHaveLength(1);
        return calls[0]!;
      });
      // The start, then the arguments as the model writes them: several pieces, not one.
      expect(fragments.length).toBeGreaterThan(2);
      const id = fragments[0]!.id;
      expect(id).toMatch(TOOL_CALL_ID);
      for (const f of fragments) {
        expect(Object.keys(f)).toEqual(['index', 'id', 'type', 'function']);
        expect(f).toMatchObject({ index: 0, id, type: 'function', function: { name: 'get_weather' } });
        expect(typeof f.function.arguments).toBe('string');
      }
      expect(JSON.parse(fragments.map((f) => f.function.arguments).join(''))).toEqual({ city: 'Paris' });
      expect(finishOf(chunks)).toBe('tool_calls');
    });

    it('finish length when max_tokens cuts the reply, whole and streamed', async () => {
      const body = await chat({ messages: MESSAGES, max_tokens: 2 });
      expect(body.choices[0]).toMatchObject({ finish_reason: 'length', message: { content: 'Hello from' } });
      expect(body.usage.completion_tokens).toBe(2);
      const chunks = await stream({ messages: MESSAGES, max_tokens: 2 });
      expect(joined(chunks, 'content')).toBe('Hello from');
      expect(finishOf(chunks)).toBe('length');
    });

    it('stops at a stop word (string or list), which is not in the reply', async () => {
      const body = await chat({ messages: MESSAGES, stop: ' test' });
      expect(body.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: 'Hello from the' } });
      const chunks = await stream({ messages: MESSAGES, stop: [' model', ' the'] });
      expect(joined(chunks, 'content')).toBe('Hello from');
      expect(finishOf(chunks)).toBe('stop');
    });

    it('thinking model: reasoning_content first, then content; counted as reasoning tokens', async () => {
      const body = await chat({ messages: MESSAGES }, THINKING);
      expect(body.choices[0]!.message).toEqual({
        role: 'assistant',
        content: PLAIN_REPLY,
        reasoning_content: THOUGHT,
      });
      expect(body.usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
      const chunks = await stream({ messages: MESSAGES }, THINKING);
      expect(joined(chunks, 'reasoning_content')).toBe(THOUGHT);
      expect(joined(chunks, 'content')).toBe(PLAIN_REPLY);
      expect(chunks[0]!.choices[0]!.delta.reasoning_content).toBeDefined();
      expect(chunks.at(-1)!.usage!.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
    });

    it('thinking {type: "disabled"}: no reasoning_content at all', async () => {
      const thinking = { type: 'disabled' };
      const body = await chat({ messages: MESSAGES, thinking }, THINKING);
      expect(body.choices[0]!.message).toEqual({ role: 'assistant', content: PLAIN_REPLY });
      expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(0);
      const chunks = await stream({ messages: MESSAGES, thinking }, THINKING);
      expect(chunks.some((c) => c.choices[0]!.delta.reasoning_content !== undefined)).toBe(false);
      expect(joined(chunks, 'content')).toBe(PLAIN_REPLY);
    });
  });
}
