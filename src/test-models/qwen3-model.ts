import { CHATML_TOOLS_TEMPLATE } from './chat-template.js';
import type { GgufFile, GgufTensor, GgufValue } from './gguf-writer.js';
import { prng } from './prng.js';
import { SPECIAL_TOKENS } from './specials.js';
import { buildVocab } from './vocab.js';

/** The sizes of a `qwen3`-architecture model (llama.cpp's src/models/qwen3.cpp). */
export interface Qwen3Shape {
  layers: number;
  embedding: number;
  heads: number;
  kvHeads: number;
  /** Per head, for queries, keys and values alike; need not be embedding / heads. */
  headDim: number;
  feedForward: number;
  vocab: number;
  contextLength: number;
}

/** Qwen3-0.6B's published config.json: ~0.6B parameters, input and output embeddings tied. */
export const QWEN3_0_6B: Qwen3Shape = {
  layers: 28,
  embedding: 1024,
  heads: 16,
  kvHeads: 8,
  headDim: 128,
  feedForward: 3072,
  vocab: 151_936,
  contextLength: 40_960,
};

/**
 * Random weights in a `qwen3` GGUF, tensor names and metadata keys as llama.cpp's converter writes
 * them (GQA, per-head RMS norms of queries and keys, no output.weight: the output reuses
 * token_embd). Matrices are stored as `type` (F16 for a file llama-quantize then quantizes), norms
 * as F32 like the converter's. The embedding rows of the special tokens and of the bytes outside
 * printable ASCII are zero, so greedy decoding never picks one (a zero logit is never the top among
 * random ones): generation runs to its token limit and its text is always valid UTF-8. Each
 * tensor's values are made when it is written, from a seed of its own, so the same arguments
 * write the same bytes.
 */
export function randomQwen3(shape: Qwen3Shape, seed = 1, type: 'f32' | 'f16' = 'f16'): GgufFile {
  const vocab = buildVocab([' t', 'he', ' the', 'in', ' a', 'er', 'on'], SPECIAL_TOKENS, shape.vocab);
  if (vocab.tokens.length !== shape.vocab) throw new Error(`qwen3: a vocabulary of ${shape.vocab} tokens is too small`);
  const { embedding: d, headDim, feedForward: ff } = shape;
  const q = shape.heads * headDim;
  const kv = shape.kvHeads * headDim;
  const arch = 'qwen3';
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: arch },
    'general.name': { type: 'string', value: 'gen-platform random qwen3' },
    'general.alignment': { type: 'u32', value: 32 },
    // llama_ftype: 0 all F32, 1 mostly F16.
    'general.file_type': { type: 'u32', value: type === 'f16' ? 1 : 0 },
    [`${arch}.context_length`]: { type: 'u32', value: shape.contextLength },
    [`${arch}.embedding_length`]: { type: 'u32', value: d },
    [`${arch}.block_count`]: { type: 'u32', value: shape.layers },
    [`${arch}.feed_forward_length`]: { type: 'u32', value: ff },
    [`${arch}.attention.head_count`]: { type: 'u32', value: shape.heads },
    [`${arch}.attention.head_count_kv`]: { type: 'u32', value: shape.kvHeads },
    [`${arch}.attention.key_length`]: { type: 'u32', value: headDim },
    [`${arch}.attention.value_length`]: { type: 'u32', value: headDim },
    [`${arch}.attention.layer_norm_rms_epsilon`]: { type: 'f32', value: 1e-6 },
    [`${arch}.rope.freq_base`]: { type: 'f32', value: 1_000_000 },
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'qwen2' },
    'tokenizer.ggml.tokens': { type: 'string[]', value: vocab.tokens },
    'tokenizer.ggml.token_type': { type: 'i32[]', value: vocab.types },
    'tokenizer.ggml.merges': { type: 'string[]', value: vocab.merges },
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: vocab.id('<|endoftext|>') },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: vocab.id('<|im_end|>') },
    'tokenizer.ggml.padding_token_id': { type: 'u32', value: vocab.id('<|endoftext|>') },
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: CHATML_TOOLS_TEMPLATE },
  };
  const never = SPECIAL_TOKENS.map((t) => vocab.id(t.text));
  for (let b = 0; b < 256; b++) if (b < 32 || b > 126) never.push(b);
  let index = 0;
  const matrix = (name: string, dims: [number, number]): GgufTensor => {
    const own = seed * 100_003 + index++;
    return {
      name,
      dims,
      type,
      data: () => {
        const rand = prng(own);
        const values = new Float32Array(dims[0] * dims[1]);
        for (let i = 0; i < values.length; i++) values[i] = (rand() - 0.5) * 0.2;
        // ggml order: row t of a [row length, rows] tensor starts at t * row length.
        if (name === 'token_embd.weight') for (const t of never) values.fill(0, t * dims[0], (t + 1) * dims[0]);
        return values;
      },
    };
  };
  const norm = (name: string, size: number): GgufTensor => ({
    name,
    dims: [size],
    data: new Float32Array(size).fill(1),
  });
  const tensors: GgufTensor[] = [matrix('token_embd.weight', [d, shape.vocab]), norm('output_norm.weight', d)];
  for (let l = 0; l < shape.layers; l++) {
    const p = `blk.${l}`;
    tensors.push(
      norm(`${p}.attn_norm.weight`, d),
      matrix(`${p}.attn_q.weight`, [d, q]),
      matrix(`${p}.attn_k.weight`, [d, kv]),
      matrix(`${p}.attn_v.weight`, [d, kv]),
      matrix(`${p}.attn_output.weight`, [q, d]),
      norm(`${p}.attn_q_norm.weight`, headDim),
      norm(`${p}.attn_k_norm.weight`, headDim),
      norm(`${p}.ffn_norm.weight`, d),
      matrix(`${p}.ffn_gate.weight`, [d, ff]),
      matrix(`${p}.ffn_up.weight`, [d, ff]),
      matrix(`${p}.ffn_down.weight`, [ff, d]),
    );
  }
  return { metadata, tensors };
}
