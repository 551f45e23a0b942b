import { getLlama, LlamaChat, type LlamaContext, LlamaLogLevel, type LlamaModel, type Token } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAIT_TURNS, stepBatching } from '../../../src/engines/chat/llama-cpp/batch-order.js';
import { createLlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { runGeneration } from '../../../src/engines/chat/llama-cpp/generation.js';
import { collect, request, tempModels } from './fixture.js';

type Strategy = (o: { items: { tokens: Token[] }[]; size: number }) => { item: unknown; processAmount: number }[];

/** A stand-in for node-llama-cpp's context: only its pending decodes are read. */
function fakeContext(queued: { tokens: Token[]; sequenceId: number }[]): LlamaContext {
  return { _queuedDecodes: queued } as unknown as LlamaContext;
}

function items(ids: number[], length = 1) {
  const queued = ids.map((sequenceId) => ({ sequenceId, tokens: Array.from({ length }, () => 1 as Token) }));
  const list = queued.map((q) => ({ tokens: q.tokens, logits: [], evaluationPriority: 5 }));
  return { queued, list };
}

const strategyOf = (b: ReturnType<typeof stepBatching>) => b.options.itemPrioritizationStrategy as unknown as Strategy;

describe('step batching (unit)', () => {
  it('adds the sequences to a decode in ascending id order', () => {
    const b = stepBatching(() => 4);
    const { queued, list } = items([3, 1, 0, 2]);
    b.attach(fakeContext(queued));
    const out = strategyOf(b)({ items: list, size: 512 });
    expect(out.map((p) => queued[list.indexOf(p.item as (typeof list)[number])]?.sequenceId)).toEqual([0, 1, 2, 3]);
    expect(out.every((p) => p.processAmount === 1)).toBe(true);
  });

  it('waits a bounded number of turns for a generating sequence that has not asked yet', () => {
    const b = stepBatching(() => 3);
    const { queued, list } = items([2, 0]);
    b.attach(fakeContext(queued));
    const strategy = strategyOf(b);
    for (let i = 0; i < MAX_WAIT_TURNS; i++) expect(strategy({ items: list, size: 512 })).toEqual([]);
    expect(strategy({ items: list, size: 512 })).toHaveLength(2);
    // The count starts again for the next step.
    expect(strategy({ items: list, size: 512 })).toEqual([]);
  });

  it('shares the batch like node-llama-cpp: an even share each, then the rest in turn', () => {
    const b = stepBatching(() => 3);
    const { queued, list } = items([2, 1, 0], 300);
    b.attach(fakeContext(queued));
    const out = strategyOf(b)({ items: list, size: 700 });
    // In id order: sequence 2 asked first, so it has the token left over.
    expect(out.map((p) => p.processAmount)).toEqual([233, 233, 234]);
  });

  it('without the context it keeps the order it was given and never waits', () => {
    const b = stepBatching(() => 8);
    const { list } = items([5, 4]);
    const out = strategyOf(b)({ items: list, size: 512 });
    expect(out.map((p) => p.item)).toEqual(list);
  });
});

describe('step batching on node-llama-cpp', () => {
  let models: Awaited<ReturnType<typeof tempModels>>;
  let model: LlamaModel;
  beforeAll(async () => {
    models = await tempModels();
    const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false });
    model = await llama.loadModel({ modelPath: models.paths.random, gpuLayers: 0 });
  });
  afterAll(async () => {
    await model?.dispose();
    await models?.cleanup();
  });

  it('puts every generating sequence of a step into one decode, in id order', async () => {
    const n = 4;
    const b = stepBatching(() => n);
    const strategy = strategyOf(b);
    const steps: number[][] = [];
    let context: LlamaContext | undefined;
    const observed: Strategy = (o) => {
      const out = strategy(o);
      // node-llama-cpp's pending decodes are what tells the items' sequences apart.
      const queued = (context as unknown as { _queuedDecodes: { tokens: unknown; sequenceId: number }[] })
        ._queuedDecodes;
      if (out.length > 0)
        steps.push(
          out.map((p) => queued.find((q) => q.tokens === (p.item as { tokens: unknown }).tokens)?.sequenceId ?? -1),
        );
      return out;
    };
    context = await model.createContext({
      contextSize: 256,
      sequences: n,
      threads: 1,
      batching: { itemPrioritizationStrategy: observed as never },
    });
    b.attach(context);
    try {
      const prompt = model.tokenize('Once upon a time');
      const sequences = Array.from({ length: n }, () => context?.getSequence());
      await Promise.all(
        sequences.map(async (s) => {
          let k = 0;
          for await (const _ of s?.evaluate(prompt, { temperature: 0 }) ?? []) if (++k >= 12) break;
        }),
      );
      const generating = steps.slice(1, -1);
      expect(generating.length).toBeGreaterThan(5);
      for (const ids of generating) expect(ids).toEqual([0, 1, 2, 3]);
    } finally {
      await context.dispose();
    }
  });

  it('a request stops counting as generating when the model stops, not when its output is read', async () => {
    const context = await model.createContext({ contextSize: 256, sequences: 1, threads: 1 });
    try {
      const chat = new LlamaChat({ contextSequence: context.getSequence() });
      let done = 0;
      const parts = runGeneration(
        {
          chat,
          history: [{ type: 'user', text: 'Hi!' }],
          functions: undefined,
          grammar: undefined,
          request: request({ maxTokens: 4, thinking: false }),
          promptTokens: 0,
          cachedTokens: 0,
          roomForOutput: 200,
          onModelDone: () => done++,
        },
        new AbortController().signal,
      )[Symbol.asyncIterator]();
      await parts.next();
      // Nothing more is read, yet the model finishes its four tokens.
      for (let i = 0; i < 200 && done === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(done).toBe(1);
      while (!(await parts.next()).done) {}
      expect(done).toBe(1);
    } finally {
      await context.dispose();
    }
  });

  it('the engine gives its context this batching', async () => {
    const seen: unknown[] = [];
    const proto = Object.getPrototypeOf(model) as { createContext: (o: { batching?: unknown }) => unknown };
    const original = proto.createContext;
    proto.createContext = function (this: unknown, o: { batching?: unknown }) {
      seen.push(o.batching);
      return original.call(this, o);
    };
    try {
      const engine = await createLlamaCppEngine({
        modelPath: models.paths.random,
        threads: 1,
        contextSize: 256,
        parallel: 2,
      });
      try {
        await Promise.all([collect(engine, request({ maxTokens: 4 })), collect(engine, request({ maxTokens: 4 }))]);
      } finally {
        await engine.close();
      }
    } finally {
      proto.createContext = original;
    }
    expect(seen).toHaveLength(1);
    expect(typeof (seen[0] as { itemPrioritizationStrategy?: unknown }).itemPrioritizationStrategy).toBe('function');
  });
});
