import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, LlamaChat, resolveChatWrapper } from 'node-llama-cpp';
import { createLlamaCppEngine } from '../src/engines/chat/llama-cpp/engine.js';
import type { ChatRequest } from '../src/engines/chat/types.js';
import { writeTestModels } from '../src/test-models/write-test-models.js';

import type { BenchRow } from './types.js';

export type { BenchRow };

const TOKENS = 400;
const ROUNDS = 7;
const PROMPT = 'Tell me a long story about a lighthouse keeper.';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

/**
 * Tokens/s of the embedded engine against node-llama-cpp's LlamaChat driven directly, on the
 * same random-weights test model (which never stops early), one thread, greedy, same prompt.
 * Rounds alternate between the two so that machine noise hits both alike.
 */
export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-embedded-'));
  try {
    const { random } = await writeTestModels(dir);
    const engine = await createLlamaCppEngine({ modelPath: random, threads: 1, contextSize: 1024, parallel: 1 });
    const llama = await getLlama({ gpu: false, build: 'never' });
    const model = await llama.loadModel({ modelPath: random, gpuLayers: 0 });
    const context = await model.createContext({ contextSize: 1024, sequences: 1, threads: 1 });
    const chat = new LlamaChat({ contextSequence: context.getSequence(), chatWrapper: resolveChatWrapper(model) });

    const request: ChatRequest = {
      messages: [{ role: 'user', content: PROMPT }],
      tools: [],
      sampling: { temperature: 0, topP: 1, greedy: true },
      maxTokens: TOKENS,
      stop: [],
      responseFormat: 'text',
      thinking: true,
    };
    const viaEngine = async () => {
      const start = performance.now();
      let tokens = 0;
      for await (const part of engine.generate(request, new AbortController().signal)) {
        if (part.type === 'finish') tokens = part.usage.completionTokens;
      }
      return tokens / ((performance.now() - start) / 1000);
    };
    const direct = async () => {
      const start = performance.now();
      const meter = chat.sequence.tokenMeter;
      const before = meter.usedOutputTokens;
      await chat.generateResponse(
        [
          { type: 'user', text: PROMPT },
          { type: 'model', response: [] },
        ],
        { maxTokens: TOKENS, temperature: 0, repeatPenalty: false, onResponseChunk: () => {} },
      );
      return (meter.usedOutputTokens - before) / ((performance.now() - start) / 1000);
    };

    await viaEngine();
    await direct();
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ours.push(await viaEngine());
      theirs.push(await direct());
    }
    await engine.close();
    await context.dispose();
    await model.dispose();
    const value = median(ours);
    const baseline = median(theirs);
    return [
      {
        name: `embedded engine: generation speed (random test model, 1 thread, greedy, ${TOKENS} tokens) vs node-llama-cpp LlamaChat`,
        value: Math.round(value),
        unit: 'tokens/s',
        baseline: Math.round(baseline),
        ratio: Number((value / baseline).toFixed(3)),
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
