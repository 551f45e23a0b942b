import { describe, expect, it } from 'vitest';
import type { ChatCompletionBody } from '../../../src/api/chat.js';
import type { PromptProgress } from '../../../src/engines/chat/types.js';
import { callContext } from '../../../src/services/call-context.js';
import { ScriptedChatEngine, scriptedChatService } from '../../helpers/scripted-chat-engine.js';

/**
 * A generation cut short before its first part (the client gone, a timeout, a stall in the
 * prefill) is billed the prompt tokens the engine said it had evaluated, or the whole prompt once
 * handed over; nothing when the prompt never reached the engine's evaluation.
 */

const PROMPT_COUNT = 42;
const body = { model: 'gen-4.6', messages: [{ role: 'user', content: 'Tell a long story.' }] } as ChatCompletionBody;
const identity = { id: 'x', created: 0, requestId: 'x' };

/** Starts a call whose engine reports `progress` and stalls, cancels it before the first part, and gives its usage. */
async function cutInPrefill(progress: PromptProgress[]) {
  const engine = new ScriptedChatEngine(undefined, () => PROMPT_COUNT).stalls(progress);
  const chat = scriptedChatService(engine);
  const client = new AbortController();
  const call = callContext({ signal: client.signal, tenant: 'key-1' });
  const run = await chat.start(body, identity, call);
  const parts: unknown[] = [];
  const consumed = (async () => {
    for await (const part of run.parts) parts.push(part);
  })();
  // The engine has been asked (and has reported) before the client goes.
  await new Promise((resolve) => setImmediate(resolve));
  expect(engine.requests).toHaveLength(1);
  client.abort(new Error('client gone'));
  await consumed;
  await call.usage.counted();
  expect(parts).toEqual([]);
  return { usage: call.usage, engine };
}

describe('a generation cut short in its prefill', () => {
  it('is billed the tokens the engine had evaluated, with those it reused as cached', async () => {
    const { usage, engine } = await cutInPrefill([
      { tokens: 1000, evaluated: 100, cached: 100 },
      { tokens: 1000, evaluated: 612, cached: 100 },
    ]);
    expect(usage).toMatchObject({ promptTokens: 612, completionTokens: 0, cachedTokens: 100 });
    expect(engine.counted).toEqual([]);
  });

  it('is billed the whole prompt once handed over, where the engine tokenized it but says nothing of its progress', async () => {
    const { usage } = await cutInPrefill([{ tokens: 1000 }]);
    expect(usage).toMatchObject({ promptTokens: 1000, completionTokens: 0 });
  });

  it("is billed the prompt counted with the engine's tokenizer when a server took it (it counts it itself)", async () => {
    const { usage, engine } = await cutInPrefill([{}]);
    expect(usage).toMatchObject({ promptTokens: PROMPT_COUNT, completionTokens: 0 });
    expect(engine.counted).toHaveLength(1);
  });

  it('costs nothing when the prompt never reached the evaluation (waiting its turn)', async () => {
    const { usage, engine } = await cutInPrefill([]);
    expect(usage).toMatchObject({ promptTokens: 0, completionTokens: 0 });
    expect(engine.counted).toEqual([]);
  });
});
