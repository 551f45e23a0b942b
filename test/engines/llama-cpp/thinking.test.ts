import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLlamaCppEngine, type LlamaCppEngine } from '../../../src/engines/chat/llama-cpp/engine.js';
import { PLAIN_REPLY, THOUGHT } from '../../../src/test-models/programmed-model.js';
import { collect, finishOf, request, tempModels, textOf } from './fixture.js';

let engine: LlamaCppEngine;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  const models = await tempModels();
  cleanup = models.cleanup;
  engine = await createLlamaCppEngine({ modelPath: models.paths.thinking, threads: 1, contextSize: 1024 });
});
afterAll(async () => {
  await engine?.close();
  await cleanup?.();
});

describe('llama.cpp engine on a thinking model', () => {
  it('declares the thinking capability', () => {
    expect(engine.capabilities.thinking).toBe(true);
  });

  it('streams the reasoning first, then the answer', async () => {
    const parts = await collect(engine, request());
    expect(textOf(parts, 'reasoning-delta')).toBe(THOUGHT);
    expect(textOf(parts)).toBe(PLAIN_REPLY);
    const lastReasoning = parts.findLastIndex((p) => p.type === 'reasoning-delta');
    const firstText = parts.findIndex((p) => p.type === 'text-delta');
    expect(lastReasoning).toBeLessThan(firstText);
    expect(finishOf(parts).usage.reasoningTokens).toBeGreaterThan(0);
  });

  it('thinking disabled: no reasoning, the same answer', async () => {
    const parts = await collect(engine, request({ thinking: false }));
    expect(parts.some((p) => p.type === 'reasoning-delta')).toBe(false);
    expect(textOf(parts)).toBe(PLAIN_REPLY);
    expect(finishOf(parts).usage.reasoningTokens).toBe(0);
  });

  it('sampling with a seed is reproducible', async () => {
    const sampled = request({ sampling: { temperature: 1, topP: 0.95, greedy: false, seed: 42 } });
    expect(textOf(await collect(engine, sampled))).toBe(textOf(await collect(engine, sampled)));
  });
});
