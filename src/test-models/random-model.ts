import { CHATML_TOOLS_TEMPLATE } from './chat-template.js';
import type { GgufFile } from './gguf-writer.js';
import { llamaGguf } from './llama-gguf.js';
import { SPECIAL_TOKENS } from './specials.js';
import { buildVocab } from './vocab.js';

/** Deterministic PRNG (mulberry32): the same seed writes the same file. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 2 layers, dim 64, 4 heads, ff 128, random weights: exercises loading and raw generation speed. */
export function randomModel(seed = 1): GgufFile {
  const vocab = buildVocab([' t', 'he', ' the', 'in', ' a', 'er', 'on'], SPECIAL_TOKENS);
  const rand = prng(seed);
  return llamaGguf({
    name: 'gen-platform random test model',
    vocab,
    bosToken: '<|endoftext|>',
    eosToken: '<|im_end|>',
    chatTemplate: CHATML_TOOLS_TEMPLATE,
    contextLength: 4096,
    embedding: 64,
    heads: 4,
    layers: 2,
    feedForward: 128,
    ropeFreqBase: 10000,
    weight(name, dims) {
      const size = dims.reduce((a, b) => a * b, 1);
      if (name.endsWith('norm.weight')) return new Float32Array(size).fill(1);
      const data = new Float32Array(size);
      for (let i = 0; i < size; i++) data[i] = (rand() - 0.5) * 0.2;
      return data;
    },
  });
}
