import { readdir, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { getLlama, LlamaLogLevel, type LlamaModel } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { PromptCache } from '../../../src/engines/chat/llama-cpp/prompt-cache.js';
import { writeGguf } from '../../../src/test-models/gguf-writer.js';
import { randomModel } from '../../../src/test-models/random-model.js';
import { collect, finishOf, request, tempModels, textOf } from './fixture.js';

let models: Awaited<ReturnType<typeof tempModels>>;
/** Random weights that never end early: every reply is maxTokens long and depends on every prompt token. */
let modelPath: string;
beforeAll(async () => {
  models = await tempModels();
  modelPath = join(models.paths.random, '..', 'never-ends.gguf');
  await writeGguf(modelPath, randomModel(3, undefined, true));
});
afterAll(async () => {
  await models?.cleanup();
});

const long = request({
  messages: [{ role: 'user', content: 'The lighthouse keeper watched the grey sea all night long. '.repeat(3) }],
  maxTokens: 24,
});

describe('prompt cache shared between sequences', () => {
  let cached: LlamaCppEngine;
  let plain: LlamaCppEngine;
  beforeAll(async () => {
    const options = { modelPath, threads: 1, contextSize: 1024, parallel: 2 };
    cached = await createLlamaCppEngine({ ...options, promptCacheBytes: 64 * 1024 ** 2 });
    plain = await createLlamaCppEngine(options);
  });
  afterAll(async () => {
    await cached?.close();
    await plain?.close();
  });

  it('a second concurrent request with the same prompt, on the other sequence, restores it: cached tokens, same greedy reply', async () => {
    const promptTokens = await cached.countTokens(long.messages, []);
    expect(promptTokens).toBeGreaterThan(64);
    const first = await collect(cached, long);
    expect(finishOf(first).usage.cachedTokens).toBe(0);
    // The first of the two is lent the sequence that holds the prompt, the second the other one.
    const [a, b] = await Promise.all([collect(cached, long), collect(cached, long)]);
    expect(finishOf(a).usage.cachedTokens).toBe(promptTokens - 1);
    expect(finishOf(b).usage).toMatchObject({ promptTokens, cachedTokens: promptTokens - 1, completionTokens: 24 });
    expect(textOf(b)).toBe(textOf(a));
    expect(textOf(b)).toBe(textOf(first));
    expect(cached.load).toEqual({ available: 2, waiting: 0 });

    // Without the cache, the other sequence evaluates the prompt (nothing cached), to the same reply.
    await collect(plain, long);
    const [c, d] = await Promise.all([collect(plain, long), collect(plain, long)]);
    expect(finishOf(c).usage.cachedTokens).toBe(promptTokens - 1);
    expect(finishOf(d).usage.cachedTokens).toBe(0);
    expect(textOf(d)).toBe(textOf(first));
  }, 60_000);

  it('a longer prompt restores the shared prefix and evaluates only the rest', async () => {
    const longer = request({
      messages: [...long.messages, { role: 'assistant', content: 'Yes.' }, { role: 'user', content: 'And then?' }],
      maxTokens: 8,
    });
    const fresh = await collect(plain, longer);
    // Both sequences are busy with other prompts, then one is free: it holds none of this prompt.
    const other = (text: string) =>
      collect(cached, request({ messages: [{ role: 'user', content: text.repeat(40) }], maxTokens: 4 }));
    await Promise.all([other('a b c '), other('x y z ')]);
    const parts = await collect(cached, longer);
    const usage = finishOf(parts).usage;
    expect(usage.cachedTokens).toBeGreaterThanOrEqual((await cached.countTokens(long.messages, [])) - 1);
    expect(usage.cachedTokens).toBeLessThan(usage.promptTokens - 1);
    expect(textOf(parts)).toBe(textOf(fresh));
  }, 60_000);
});

describe('prompt state files', () => {
  let model: LlamaModel;
  beforeAll(async () => {
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false });
    model = await llama.loadModel({ modelPath, gpuLayers: 0 });
  });
  afterAll(async () => {
    await model?.dispose();
  });

  it('are private, bounded by the budget and removed at close; 0 bytes: no cache', async () => {
    const context = await model.createContext({ contextSize: 256, sequences: 2, threads: 1 });
    const source = { modelPath, contextSize: 256, sequences: 2, wholeOnly: false };
    expect(await PromptCache.open(source, 0, () => {})).toBeUndefined();
    const warnings: string[] = [];
    const cache = (await PromptCache.open(source, 10 * 1024 ** 2, (_d, m) => warnings.push(m))) as PromptCache;
    try {
      const [one, two] = [context.getSequence(), context.getSequence()];
      const tokens = model.tokenize('The keeper lit the lamp at dusk and waited for the ships. '.repeat(2));
      await one.evaluateWithoutGeneratingNewTokens(tokens);
      await cache.save(one);
      expect((await stat(cache.dir)).mode & 0o777).toBe(0o700);
      expect(basename(cache.dir)).toMatch(new RegExp(`^gen-platform-prompts-${process.pid}-`));
      const files = await readdir(cache.dir);
      expect(files).toHaveLength(1);
      expect((await stat(join(cache.dir, files[0] as string))).mode & 0o777).toBe(0o600);
      expect(cache.bytes).toBe((await stat(join(cache.dir, files[0] as string))).size);

      await cache.restore(two, [...tokens, ...model.tokenize(' More.')]);
      expect(two.contextTokens).toEqual(tokens);
      expect(warnings).toEqual([]);

      // A file that cannot be read: the state is forgotten and the sequence left empty, to evaluate.
      await two.clearHistory();
      await rm(join(cache.dir, files[0] as string));
      await cache.restore(two, tokens);
      expect(two.contextTokens).toEqual([]);
      expect(warnings).toEqual(['A saved prompt state could not be restored; the prompt is evaluated instead']);
      expect(cache.bytes).toBe(0);
      await two.evaluateWithoutGeneratingNewTokens(tokens);
      expect(two.contextTokens).toEqual(tokens);
    } finally {
      await cache.close();
      await context.dispose();
    }
    await expect(stat(cache.dir)).rejects.toThrow(/ENOENT/);
  }, 60_000);
});
