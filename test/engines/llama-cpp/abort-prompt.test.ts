import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { onFirstDecode } from '../../helpers/decode-hook.js';
import { collect, finishOf, request, tempModels } from './fixture.js';

let models: Awaited<ReturnType<typeof tempModels>>;
/** One sequence, a queue of one, and room for a prompt of many evaluation batches. */
let engine: LlamaCppEngine;
beforeAll(async () => {
  models = await tempModels();
  engine = await createLlamaCppEngine({
    modelPath: models.paths.programmed,
    threads: 1,
    contextSize: 16384,
    parallel: 1,
    queueLimit: 1,
  });
});
afterAll(async () => {
  await engine?.close();
  await models?.cleanup();
});

describe('a client that leaves while its prompt is evaluated', () => {
  it('lets go of the sequence before the rest of the prompt is evaluated', async () => {
    const long = request({ messages: [{ role: 'user', content: 'lorem ipsum dolor '.repeat(200) }], maxTokens: 1 });
    const promptTokens = await engine.countTokens(long.messages, []);
    expect(promptTokens).toBeGreaterThan(3 * 512);

    const ac = new AbortController();
    const restore = onFirstDecode(() => ac.abort());
    const left = new Promise<void>((resolve) => ac.signal.addEventListener('abort', () => resolve()));
    const aEnd = engine.generate(long, ac.signal)[Symbol.asyncIterator]().next();
    await left.finally(restore);

    // The same prompt again: its cached tokens are what the sequence holds of the first one, so
    // they say how far the first evaluation went before the sequence was lent again.
    const again = await collect(engine, long);
    await expect(aEnd).resolves.toEqual({ done: true, value: undefined });
    const { usage } = finishOf(again);
    expect(usage.promptTokens).toBe(promptTokens);
    expect(usage.cachedTokens).toBeLessThan(promptTokens / 2);
    expect(engine.load).toEqual({ available: 1, waiting: 0 });
  }, 60_000);

  it('a prompt evaluated in pieces still gives the same reply and reuses its prefix next time', async () => {
    const long = request({ messages: [{ role: 'user', content: 'lorem ipsum dolor '.repeat(80) }] });
    const first = await collect(engine, long);
    const second = await collect(engine, long);
    expect(finishOf(first).reason).toBe(finishOf(second).reason);
    expect(first.filter((p) => p.type === 'text-delta')).toEqual(second.filter((p) => p.type === 'text-delta'));
    expect(finishOf(second).usage.cachedTokens).toBe(finishOf(second).usage.promptTokens - 1);
  }, 60_000);
});
