import type { GgufFile, GgufTensor, GgufValue } from './gguf-writer.js';
import type { Vocab } from './vocab.js';

/** Shape and tokenizer of a tiny `llama`-architecture model; weights come from `weight()`. */
export interface LlamaSpec {
  name: string;
  vocab: Vocab;
  bosToken: string;
  eosToken: string;
  chatTemplate: string;
  contextLength: number;
  embedding: number;
  heads: number;
  layers: number;
  feedForward: number;
  ropeFreqBase: number;
  /** Values of one tensor, given its name and ggml dims (row length first). */
  weight(name: string, dims: readonly number[]): Float32Array;
}

export function llamaGguf(spec: LlamaSpec): GgufFile {
  const { vocab, embedding: d, feedForward: ff } = spec;
  const nVocab = vocab.tokens.length;
  const metadata: Record<string, GgufValue> = {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: spec.name },
    'general.alignment': { type: 'u32', value: 32 },
    'llama.context_length': { type: 'u32', value: spec.contextLength },
    'llama.embedding_length': { type: 'u32', value: d },
    'llama.block_count': { type: 'u32', value: spec.layers },
    'llama.feed_forward_length': { type: 'u32', value: ff },
    'llama.attention.head_count': { type: 'u32', value: spec.heads },
    'llama.attention.head_count_kv': { type: 'u32', value: spec.heads },
    'llama.attention.layer_norm_rms_epsilon': { type: 'f32', value: 1e-6 },
    'llama.rope.freq_base': { type: 'f32', value: spec.ropeFreqBase },
    'llama.vocab_size': { type: 'u32', value: nVocab },
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.pre': { type: 'string', value: 'qwen2' },
    'tokenizer.ggml.tokens': { type: 'string[]', value: vocab.tokens },
    'tokenizer.ggml.token_type': { type: 'i32[]', value: vocab.types },
    'tokenizer.ggml.merges': { type: 'string[]', value: vocab.merges },
    'tokenizer.ggml.bos_token_id': { type: 'u32', value: vocab.id(spec.bosToken) },
    'tokenizer.ggml.eos_token_id': { type: 'u32', value: vocab.id(spec.eosToken) },
    'tokenizer.ggml.padding_token_id': { type: 'u32', value: vocab.id(spec.bosToken) },
    'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
    'tokenizer.chat_template': { type: 'string', value: spec.chatTemplate },
  };
  const tensor = (name: string, dims: number[]): GgufTensor => ({ name, dims, data: spec.weight(name, dims) });
  const tensors: GgufTensor[] = [tensor('token_embd.weight', [d, nVocab])];
  for (let l = 0; l < spec.layers; l++) {
    const p = `blk.${l}`;
    tensors.push(
      tensor(`${p}.attn_norm.weight`, [d]),
      tensor(`${p}.attn_q.weight`, [d, d]),
      tensor(`${p}.attn_k.weight`, [d, d]),
      tensor(`${p}.attn_v.weight`, [d, d]),
      tensor(`${p}.attn_output.weight`, [d, d]),
      tensor(`${p}.ffn_norm.weight`, [d]),
      tensor(`${p}.ffn_gate.weight`, [d, ff]),
      tensor(`${p}.ffn_up.weight`, [d, ff]),
      tensor(`${p}.ffn_down.weight`, [ff, d]),
    );
  }
  tensors.push(tensor('output_norm.weight', [d]), tensor('output.weight', [d, nVocab]));
  return { metadata, tensors };
}
