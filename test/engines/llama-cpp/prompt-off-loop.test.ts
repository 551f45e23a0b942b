import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { collect, request, tempModels } from './fixture.js';

const CONTEXT = 131_072;
let engine: LlamaCppEngine;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const models = await tempModels();
  cleanup = models.cleanup;
  engine = await createLlamaCppEngine({
    modelPath: models.paths.programmed,
    threads: 1,
    contextSize: CONTEXT,
    parallel: 1,
  });
}, 120_000);
afterAll(async () => {
  await engine?.close();
  await cleanup?.();
});

// Varied words, so that tokenizing is real work (about 0.93 tokens a character on the test model).
const text = (chars: number) =>
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu '.repeat(Math.ceil(chars / 68)).slice(0, chars);

/** The longest the event loop was held while `work` ran, in ms. */
async function loopHeld(work: () => Promise<void>): Promise<number> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  try {
    await work();
  } finally {
    delay.disable();
  }
  return delay.max / 1e6;
}

/**
 * A long prompt is tokenized on the tokenizer thread before it is checked against the context: on
 * the event loop, 4 MB (the chat bound at this context) took 2.6 s of CPU. (LlamaChat finding the
 * thread's pieces when it tokenizes the prompt again is tested in tokenizer-thread.test.ts.)
 */
describe('a long prompt on the embedded engine, off the event loop', () => {
  it('refuses a prompt at the chat bound (4 MB) with 1261, the loop free meanwhile', async () => {
    let error: unknown;
    const held = await loopHeld(async () => {
      error = await collect(
        engine,
        request({ messages: [{ role: 'user', content: text(CONTEXT * 32 - 1000) }] }),
      ).catch((err: unknown) => err);
    });
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(1261);
    console.info(`4 MB prompt → 1261: event loop held at most ${held.toFixed(0)} ms`);
    expect(held).toBeLessThan(1000);
  }, 120_000);
});
