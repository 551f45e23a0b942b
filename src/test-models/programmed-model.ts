import { CHATML_TOOLS_TEMPLATE } from './chat-template.js';
import type { GgufFile } from './gguf-writer.js';
import { llamaGguf } from './llama-gguf.js';
import { SPECIAL_TOKENS } from './specials.js';
import { buildVocab } from './vocab.js';

/**
 * A model whose hand-set weights make greedy decoding follow a bigram table, so that through the
 * real llama.cpp runtime it answers deterministically:
 * - plain chat: `Hello from the test model.`
 * - JSON mode (grammar masks the text path, the table's second choices spell it):
 *   `{"reply": "Hello from the test model."}`
 * - functions offered (`<tools>` in the prompt): a `<tool_call>`; a `city` string argument is `Paris`
 * - a tool result seen (`<tool_response>` in the prompt): `The tool answered.`
 * - thinking variant: `<think>Let me think...</think>` before the plain reply.
 *
 * Residual stream = one-hot token + a constant dimension + two marker dimensions. One layer: head 0
 * attends (softmax ≈ 1) to `<tools>` tokens, head 1 to `<tool_response>` tokens, through a
 * query/key pair that RoPE leaves unrotated (the last pair, with a huge frequency base), and
 * copies a 1 into its marker dimension. FFN is zero. The output matrix is the bigram table plus a
 * small global preference (read from the constant dimension) that steers grammar-constrained
 * sections towards closing JSON, plus the marker terms.
 */

export const PLAIN_REPLY = 'Hello from the test model.';
export const JSON_REPLY = '{"reply": "Hello from the test model."}';
export const AFTER_TOOL_REPLY = 'The tool answered.';
export const THOUGHT = 'Let me think...';

const CHAINS = {
  plain: ['Hello', ' from', ' the', ' test', ' model', '.', '<|im_end|>'],
  json: ['{"', 'reply', '": "', 'Hello'],
  afterTool: ['The', ' tool', ' answered', '.'],
  call: ['<tool_call>', '\n{"name": "'],
  callArgs: ['"', 'Paris', '"}'],
  thought: ['<think>', 'Let', ' me', ' think', '...', '</think>', '\n\n', 'Hello'],
};
const MERGED = [...new Set(Object.values(CHAINS).flat())].filter((t) => !t.startsWith('<') && t.length > 1);

const STRONG = 10;
const HEADS = 2;

export function programmedModel(options: { thinking?: boolean } = {}): GgufFile {
  const vocab = buildVocab(MERGED, SPECIAL_TOKENS);
  const V = vocab.tokens.length;
  const constDim = V;
  const markerDims = [V + 1, V + 2];
  const d = Math.ceil((V + 3) / (2 * HEADS)) * 2 * HEADS;
  const headDim = d / HEADS;
  const id = (t: string) => vocab.id(t);

  // logits[next] = table[cur][next] + global[next] + marker terms
  const table = new Map<number, Map<number, number>>();
  const set = (cur: string, next: string, value: number) => {
    const row = table.get(id(cur)) ?? new Map<number, number>();
    row.set(id(next), value);
    table.set(id(cur), row);
  };
  const chain = (tokens: string[]) => {
    for (let i = 0; i + 1 < tokens.length; i++) set(tokens[i] as string, tokens[i + 1] as string, STRONG);
  };
  for (const c of Object.values(CHAINS)) chain(c);
  set('\n', 'Hello', 3);
  set('\n', '{"', 2);
  if (options.thinking) set('\n', '<think>', 4);
  set('.', '"}', 6);
  set('"}', '<|im_end|>', STRONG);
  set('</tool_call>', '<|im_end|>', STRONG);
  const global: [string, number][] = [
    ['</tool_call>', 0.3],
    ['}', 0.2],
    ['"', 0.1],
  ];
  const markerTerms: [number, string, number][] = [
    [0, '<tool_call>', 5],
    [1, '<tool_call>', -STRONG],
    [1, 'The', 7],
  ];
  const markerTokens = [id('<tools>'), id('<tool_response>')];
  // Attention logit of a marker key ≈ 30 after llama.cpp's 1/sqrt(headDim) scaling.
  const keyScale = 30 * Math.sqrt(headDim);
  const staticPair = headDim - 2;

  return llamaGguf({
    name: options.thinking ? 'gen-platform programmed thinking test model' : 'gen-platform programmed test model',
    vocab,
    bosToken: '<|endoftext|>',
    eosToken: '<|im_end|>',
    chatTemplate: CHATML_TOOLS_TEMPLATE,
    contextLength: 4096,
    embedding: d,
    heads: HEADS,
    layers: 1,
    feedForward: 32,
    ropeFreqBase: 1e9,
    weight(name, dims) {
      const size = dims.reduce((a, b) => a * b, 1);
      const w = new Float32Array(size);
      // ggml order: element (row r, column c) of a [cols, rows] tensor is at r * cols + c.
      const at = (r: number, c: number, v: number) => {
        w[r * (dims[0] as number) + c] = v;
      };
      const layer = name.replace(/^blk\.0\./, '');
      switch (layer) {
        case 'token_embd.weight':
          for (let t = 0; t < V; t++) {
            at(t, t, 1);
            at(t, constDim, 1);
          }
          return w;
        case 'attn_norm.weight':
        case 'output_norm.weight':
          // One-hot + constant has RMS sqrt(2/d): undo the normalisation's gain.
          return w.fill(Math.sqrt(2 / d));
        case 'attn_q.weight':
          for (let h = 0; h < HEADS; h++) at(h * headDim + staticPair, constDim, 1);
          return w;
        case 'attn_k.weight':
          for (const [h, t] of markerTokens.entries()) at(h * headDim + staticPair, t, keyScale);
          return w;
        case 'attn_v.weight':
          for (const [h, t] of markerTokens.entries()) at(h * headDim, t, 1);
          return w;
        case 'attn_output.weight':
          for (const [h, m] of markerDims.entries()) at(m, h * headDim, 1);
          return w;
        case 'output.weight':
          for (const [cur, row] of table) for (const [next, v] of row) at(next, cur, v);
          for (const [t, v] of global) at(id(t), constDim, v);
          for (const [m, t, v] of markerTerms) at(id(t), markerDims[m] as number, v);
          return w;
        default:
          // FFN weights stay zero: the residual passes through unchanged.
          return name.endsWith('norm.weight') ? w.fill(1) : w;
      }
    },
  });
}
