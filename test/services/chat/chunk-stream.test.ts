import { describe, expect, it, vi } from 'vitest';
import type { ChatCompletionBody } from '../../../src/api/chat.js';
import type { ChatMessage } from '../../../src/engines/chat/types.js';
import { upstreamFailure } from '../../../src/errors/errors.js';
import { callContext } from '../../../src/services/call-context.js';
import type { ChatService } from '../../../src/services/chat/chat-service.js';
import { RequestCancel } from '../../../src/util/cancel-signal.js';
import { SCRIPTED_USAGE, ScriptedChatEngine, scriptedChatService } from '../../helpers/scripted-chat-engine.js';

const identity = { id: '20261121051800a1b2c3d4e5f60718', created: 1_763_702_280, requestId: 'r-1' };
const body = (extra: Partial<ChatCompletionBody> = {}): ChatCompletionBody =>
  ({ model: 'gen-4.6', messages: [{ role: 'user', content: 'Hi' }], stream: true, ...extra }) as ChatCompletionBody;

interface Chunk {
  choices: { delta: { content?: string; tool_calls?: unknown[] }; finish_reason?: string }[];
  usage?: { prompt_tokens: number };
  web_search?: unknown[];
}

/** The chunks a stream gives. */
async function drain(chat: ChatService, cancel = new RequestCancel(), log = vi.fn()) {
  const call = callContext({ signal: cancel, tenant: 'key-1' });
  const run = await chat.start(body(), identity, call);
  const stream = chat.chunks(run, cancel, log);
  const iterator = stream[Symbol.asyncIterator]();
  const out: Chunk[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    out.push(JSON.parse(next.value) as Chunk);
  }
  await call.usage.counted();
  return { chunks: out, run, log, usage: call.usage };
}

describe('ChunkStream (ChatService.chunks): engine parts in, chunk JSON out', () => {
  it('gives a chunk per non-empty delta and a last chunk with the finish and the usage', async () => {
    const chat = scriptedChatService(new ScriptedChatEngine().says(['Hel', '', 'lo']));
    const { chunks, run } = await drain(chat);
    expect(chunks.map((c) => c.choices[0]!.delta.content)).toEqual(['Hel', 'lo', '']);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)!.usage?.prompt_tokens).toBe(SCRIPTED_USAGE.promptTokens);
    expect(run.usage).toEqual(SCRIPTED_USAGE);
  });

  it('lets a failure before the first chunk propagate, for the edge to answer as a JSON error', async () => {
    const chat = scriptedChatService(new ScriptedChatEngine().fails([], upstreamFailure('engine down')));
    await expect(drain(chat)).rejects.toMatchObject({ code: 1234 });
  });

  it('ends with a network_error chunk after a failure past the first chunk, and logs it', async () => {
    const chat = scriptedChatService(new ScriptedChatEngine().fails(['Hi'], upstreamFailure('lost')));
    const { chunks, log } = await drain(chat);
    expect(chunks.map((c) => c.choices[0]!.finish_reason)).toEqual([undefined, 'network_error']);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('ends with a network_error chunk when the engine stops without a finish', async () => {
    const chat = scriptedChatService(new ScriptedChatEngine().replies([{ type: 'text-delta', text: 'Hi' }]));
    const { chunks } = await drain(chat);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('network_error');
  });

  it('sends nothing more once the client has gone', async () => {
    const engine = new ScriptedChatEngine().replies([{ type: 'text-delta', text: 'Hi' }]);
    const chat = scriptedChatService(engine);
    const cancel = new RequestCancel();
    const run = await chat.start(body(), identity, callContext({ signal: cancel }));
    const iterator = chat.chunks(run, cancel, vi.fn())[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    cancel.abort();
    expect((await iterator.next()).done).toBe(true);
  });
});

describe("a completion's usage, noted in the request's usage context however it ends", () => {
  /** The scripted engine counts one token per character of a prompt's JSON. */
  const tokens = (messages: ChatMessage[]) => JSON.stringify([messages, []]).length;
  const prompt = tokens([{ role: 'user', content: 'Hi' }]);
  const emitted = (text: string) =>
    tokens([{ role: 'assistant', content: text }]) - tokens([{ role: 'assistant', content: '' }]);

  it("a finished stream: the engine's own figures", async () => {
    const { usage } = await drain(scriptedChatService(new ScriptedChatEngine().says(['Hel', 'lo'])));
    expect(usage).toMatchObject({ model: undefined, promptTokens: 5, completionTokens: 3 });
  });

  it('an upstream failure after the first part: the prompt and what was emitted, counted', async () => {
    const engine = new ScriptedChatEngine().fails(['Hel', 'lo, wor'], upstreamFailure('lost'));
    const { usage } = await drain(scriptedChatService(engine));
    expect(usage).toMatchObject({ promptTokens: prompt, completionTokens: emitted('Hello, wor') });
  });

  it('a client gone mid-stream: the prompt and what was emitted until then', async () => {
    const engine = new ScriptedChatEngine().says(['one ', 'two ', 'three']);
    const chat = scriptedChatService(engine);
    const cancel = new RequestCancel();
    const call = callContext({ signal: cancel });
    const run = await chat.start(body(), identity, call);
    const iterator = chat.chunks(run, cancel, vi.fn())[Symbol.asyncIterator]();
    await iterator.next();
    await iterator.next();
    cancel.abort();
    await iterator.return?.();
    await call.usage.counted();
    expect(call.usage).toMatchObject({ promptTokens: prompt, completionTokens: emitted('one two ') });
  });

  it('a whole reply the engine ended without its figures: what was generated', async () => {
    const engine = new ScriptedChatEngine().replies([
      { type: 'text-delta', text: 'partial' },
      { type: 'text-delta', text: ' answer' },
    ]);
    const chat = scriptedChatService(engine);
    const call = callContext();
    const run = await chat.start({ ...body(), stream: false }, identity, call);
    await chat.complete(run).catch(() => undefined);
    await call.usage.counted();
    expect(call.usage).toMatchObject({ promptTokens: prompt, completionTokens: emitted('partial answer') });
  });

  it('a failure before the first part uses nothing', async () => {
    const chat = scriptedChatService(new ScriptedChatEngine().fails([], upstreamFailure('engine down')));
    const call = callContext();
    const run = await chat.start(body(), identity, call);
    await expect(chat.complete(run)).rejects.toMatchObject({ code: 1234 });
    await call.usage.counted();
    expect(call.usage).toMatchObject({ promptTokens: 0, completionTokens: 0 });
  });

  it('an engine that cannot count: an estimate from the text', async () => {
    const engine = new ScriptedChatEngine().fails(['a'.repeat(400)], upstreamFailure('lost'));
    engine.countTokens = () => Promise.reject(new Error('no tokenizer'));
    const { usage } = await drain(scriptedChatService(engine));
    expect(usage.completionTokens).toBe(100);
    expect(usage.promptTokens).toBeGreaterThan(0);
  });
});
