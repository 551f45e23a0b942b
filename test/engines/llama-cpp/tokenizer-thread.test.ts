import { getLlama, LlamaText } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { TokenizerThread } from '../../../src/engines/chat/llama-cpp/tokenizer-thread.js';
import { tempModels } from './fixture.js';

let engine: LlamaCppEngine;
let modelPath: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const models = await tempModels();
  cleanup = models.cleanup;
  modelPath = models.paths.programmed;
  engine = await createLlamaCppEngine({ modelPath, threads: 1, contextSize: 2048, parallel: 1 });
});
afterAll(async () => {
  await engine?.close();
  await cleanup?.();
});

const long = (chars: number) =>
  'The quick brown fox, 12 jumps; over the lazy dog!\n'.repeat(Math.ceil(chars / 50)).slice(0, chars);

describe('counting long prompts on the tokenizer thread', () => {
  it('gives the count the event loop gives', async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath, vocabOnly: true });
    const thread = new TokenizerThread(modelPath);
    try {
      const text = LlamaText(['<|im_start|>user\n', long(50_000), '<|im_end|>']);
      expect(await thread.count(text)).toBe(text.tokenize(model.tokenizer).length);
    } finally {
      await thread.close();
      await model.dispose();
    }
  });

  it('counts a long prompt through the engine in proportion to a short one', async () => {
    const short = await engine.countTokens([{ role: 'user', content: long(1000) }], []);
    const longer = await engine.countTokens([{ role: 'user', content: long(40_000) }], []);
    // The same text repeated: 40 times the content's tokens, the template's once.
    const frame = await engine.countTokens([{ role: 'user', content: '' }], []);
    expect(longer - frame).toBe(40 * (short - frame));
  });

  it('rejects the counts under way when closed', async () => {
    const thread = new TokenizerThread(modelPath);
    const counting = expect(thread.count(LlamaText([long(200_000)]))).rejects.toThrow(/closed/);
    await thread.close();
    await counting;
  });
});
