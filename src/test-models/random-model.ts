import { CHATML_TOOLS_TEMPLATE } from './chat-template.js';
import type { GgufFile } from './gguf-writer.js';
import { llamaGguf } from './llama-gguf.js';
import { prng } from './prng.js';
import { SPECIAL_TOKENS } from './specials.js';
import { buildVocab } from './vocab.js';

export interface RandomShape {
  embedding: number;
  layers: number;
  heads: number;
  feedForward: number;
}

/**
 * 2 layers, dim 64, 4 heads, ff 128, random weights: exercises loading and raw generation speed.
 * `shape` gives another size (the engine bench); `neverEnds` zeroes the output rows of the special
 * tokens (and of the bytes outside printable ASCII), so that greedy decoding never picks one (among
 * ~300 random logits, 0 is never the top): generation then runs to max_tokens on every engine.
 */
export function randomModel(seed = 1, shape?: RandomShape, neverEnds = false): GgufFile {
  const vocab = buildVocab([' t', 'he', ' the', 'in', ' a', 'er', 'on'], SPECIAL_TOKENS);
  const rand = prng(seed);
  return llamaGguf({
    name: 'gen-platform random test model',
    vocab,
    bosToken: '<|endoftext|>',
    eosToken: '<|im_end|>',
    chatTemplate: CHATML_TOOLS_TEMPLATE,
    contextLength: 4096,
    embedding: shape?.embedding ?? 64,
    heads: shape?.heads ?? 4,
    layers: shape?.layers ?? 2,
    feedForward: shape?.feedForward ?? 128,
    ropeFreqBase: 10000,
    weight(name, dims) {
      const size = dims.reduce((a, b) => a * b, 1);
      if (name.endsWith('norm.weight')) return new Float32Array(size).fill(1);
      const data = new Float32Array(size);
      for (let i = 0; i < size; i++) data[i] = (rand() - 0.5) * 0.2;
      if (neverEnds && name === 'output.weight') {
        // ggml order: row t (one per token) of a [embedding, vocab] tensor starts at t * embedding.
        // Zeroed: the special tokens, and the bytes that are not printable ASCII (byte token ids are
        // the byte values), so that the text is valid UTF-8 that any server's parser takes.
        const width = dims[0] as number;
        const never = [...SPECIAL_TOKENS.map((t) => vocab.id(t.text))];
        for (let b = 0; b < 256; b++) if (b < 32 || b > 126) never.push(b);
        for (const t of never) data.fill(0, t * width, (t + 1) * width);
      }
      return data;
    },
  });
}
