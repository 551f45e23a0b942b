import { getLlama, LlamaText, SpecialTokensText } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { TokenizerThread, TokenMemo } from '../../../src/engines/chat/llama-cpp/tokenizer-thread.js';
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

  it('tokenizes a prompt as the loop does, and the memo gives its pieces back to LlamaChat', async () => {
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath, vocabOnly: true });
    const thread = new TokenizerThread(modelPath);
    try {
      const text = LlamaText([
        new SpecialTokensText('<|im_start|>user\n'),
        long(200_000),
        new SpecialTokensText('<|im_end|>\n<|im_start|>assistant\n'),
      ]);
      let cpu = process.cpuUsage();
      const onLoop = text.tokenize(model.tokenizer);
      const loopMs = process.cpuUsage(cpu).user / 1000;
      const { tokens, pieces } = await thread.tokenize(text);
      expect(tokens).toEqual(onLoop);
      const memo = new TokenMemo(model);
      const release = memo.hold(pieces);
      cpu = process.cpuUsage();
      const fromMemo = text.tokenize(model.tokenizer);
      const memoMs = process.cpuUsage(cpu).user / 1000;
      expect(fromMemo).toEqual(onLoop);
      console.info(
        `200,000 characters on the loop: ${loopMs.toFixed(0)} ms of CPU tokenized, ${memoMs.toFixed(1)} ms found in the memo`,
      );
      release();
      // Released: tokenized again, the same.
      expect(text.tokenize(model.tokenizer)).toEqual(onLoop);
    } finally {
      await thread.close();
      await model.dispose();
    }
  });

  it('drops a prompt whose client left', async () => {
    const thread = new TokenizerThread(modelPath, 1);
    try {
      const left = new AbortController();
      const first = thread.count(LlamaText([long(100_000)]));
      const second = thread.count(LlamaText([long(100_000)]), left.signal);
      await expect(thread.count(LlamaText(['x']))).rejects.toThrow(/waiting/);
      left.abort(new Error('client gone'));
      await expect(second).rejects.toThrow('client gone');
      expect(await first).toBeGreaterThan(50_000);
      expect(thread.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      await thread.close();
    }
  });
});
