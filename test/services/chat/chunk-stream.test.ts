import { describe, expect, it, vi } from 'vitest';
import type { ChatCompletionBody } from '../../../src/api/chat.js';
import { upstreamFailure } from '../../../src/errors/errors.js';
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
  const run = await chat.start(body(), identity, cancel, 'key-1');
  const stream = chat.chunks(run, cancel, log);
  const iterator = stream[Symbol.asyncIterator]();
  const out: Chunk[] = [];
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    out.push(JSON.parse(next.value) as Chunk);
  }
  return { chunks: out, run, log };
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
    const run = await chat.start(body(), identity, cancel, 'key-1');
    const iterator = chat.chunks(run, cancel, vi.fn())[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    cancel.abort();
    expect((await iterator.next()).done).toBe(true);
  });
});
