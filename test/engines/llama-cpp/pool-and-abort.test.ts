import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { PLAIN_REPLY } from '../../../src/test-models/programmed-model.js';
import { collect, request, tempModels, textOf } from './fixture.js';

let models: Awaited<ReturnType<typeof tempModels>>;
/** One sequence and no queue: a request while the sequence is still held would be refused (1305). */
let random: LlamaCppEngine;
/** One sequence and a queue of one. */
let programmed: LlamaCppEngine;
beforeAll(async () => {
  models = await tempModels();
  const options = { threads: 1, contextSize: 1024, parallel: 1 };
  random = await createLlamaCppEngine({ ...options, modelPath: models.paths.random, queueLimit: 0 });
  programmed = await createLlamaCppEngine({ ...options, modelPath: models.paths.programmed, queueLimit: 1 });
});
afterAll(async () => {
  await random?.close();
  await programmed?.close();
  await models?.cleanup();
});

/** The random model never stops on its own before max tokens: a long generation to interrupt. */
const long = request({ maxTokens: 800 });

describe('sequence pool, queue and abort', () => {
  it('an aborted generation ends cleanly and frees its sequence (no queue: the next call would be 1305)', async () => {
    const e = random;
    const ac = new AbortController();
    const seen: ChatStreamPart[] = [];
    for await (const part of e.generate(long, ac.signal)) {
      seen.push(part);
      if (seen.length === 3) ac.abort();
    }
    expect(seen).toHaveLength(3);
    expect(seen.some((p) => p.type === 'finish')).toBe(false);
    expect(e.load).toEqual({ available: 1, waiting: 0 });
    const next = await collect(e, request({ maxTokens: 5 }));
    expect(next.at(-1)).toMatchObject({ type: 'finish', reason: 'length' });
  });

  it('a consumer that stops iterating frees the sequence too', async () => {
    const e = random;
    for await (const _ of e.generate(long, new AbortController().signal)) break;
    expect(e.load).toEqual({ available: 1, waiting: 0 });
    await expect(collect(e, request({ maxTokens: 3 }))).resolves.toBeDefined();
  });

  it('an abort during prompt evaluation ends the iterator without an error', async () => {
    const e = random;
    const ac = new AbortController();
    const longPrompt = request({ ...long, messages: [{ role: 'user', content: 'lorem ipsum '.repeat(60) }] });
    const it = e.generate(longPrompt, ac.signal)[Symbol.asyncIterator]();
    const first = it.next();
    ac.abort();
    const results = [await first];
    while (!results.at(-1)?.done) results.push(await it.next());
    expect(results.some((r) => !r.done && r.value.type === 'finish')).toBe(false);
    expect(e.load).toEqual({ available: 1, waiting: 0 });
    await expect(collect(e, request({ maxTokens: 3 }))).resolves.toBeDefined();
  });

  it('a full queue is refused with 1305; a queued request that aborts leaves the queue', async () => {
    const e = programmed;
    const a = e.generate(request(), new AbortController().signal)[Symbol.asyncIterator]();
    const firstOfA = await a.next();
    expect(firstOfA.done).toBe(false);

    const bAbort = new AbortController();
    const b = e.generate(request(), bAbort.signal)[Symbol.asyncIterator]();
    const bFirst = b.next();
    await vi.waitFor(() => expect(e.load.waiting).toBe(1));

    const err = await collect(e, request()).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ code: 1305, status: 503 });

    bAbort.abort();
    await expect(bFirst).resolves.toEqual({ done: true, value: undefined });
    expect(e.load.waiting).toBe(0);

    const c = e.generate(request(), new AbortController().signal)[Symbol.asyncIterator]();
    const cFirst = c.next();
    await vi.waitFor(() => expect(e.load.waiting).toBe(1));
    const restOfA: string[] = [firstOfA.value.type === 'text-delta' ? firstOfA.value.text : ''];
    for (let r = await a.next(); !r.done; r = await a.next())
      if (r.value.type === 'text-delta') restOfA.push(r.value.text);
    expect(restOfA.join('')).toBe(PLAIN_REPLY);
    const cParts: ChatStreamPart[] = [];
    for (let r = await cFirst; !r.done; r = await c.next()) cParts.push(r.value);
    expect(textOf(cParts)).toBe(PLAIN_REPLY);
  });
});
