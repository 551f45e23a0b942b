import { CHATML_TOOLS_TEMPLATE } from './chat-template.js';
import type { GgufFile } from './gguf-writer.js';
import { llamaGguf } from './llama-gguf.js';
import { SPECIAL_TOKENS } from './specials.js';
import { buildVocab } from './vocab.js';

/**
 * A model whose hand-set weights answer deterministically through the real llama.cpp runtime,
 * under greedy decoding and under any sampling the API allows (temperature up to 1, any top_p),
 * whatever the system prompt and the user's text:
 * - plain chat: `Hello from the test model.`
 * - JSON mode (the grammar masks the text path, the second choices spell it):
 *   `{"reply": "Hello from the test model."}`
 * - functions offered (`<tools>` in the prompt): a `<tool_call>`; a string argument is `Paris`
 * - a tool result seen (`<tool_response>` in the prompt): `The tool answered.`
 * - thinking variant: `<think>Let me think...</think>` before the reply (or before the call).
 *
 * Residual stream = one-hot token + a constant dimension + two marker dimensions. One layer: head 0
 * attends (softmax ≈ 1) to `<tools>` tokens, head 1 to `<tool_response>` tokens, through a
 * query/key pair that RoPE leaves unrotated (the last pair, with a huge frequency base), and
 * copies a 1 into its marker dimension; with no marker token in the prompt the head reads zeros,
 * so other text (a system prompt, a long user turn) cannot move the markers. FFN is zero.
 *
 * The output matrix is a sum of tiers, each separated from the next by more than the whole range
 * of the tiers below it:
 * - a global total order over every token (read from the constant dimension), so that wherever a
 *   grammar masks the table's choices, exactly one allowed token is on top: end of turn first,
 *   then the JSON punctuation that closes keys, strings and objects, whitespace last;
 * - the decisions at the start of a reply (rows `\n` and `\n\n`): JSON start < plain reply <
 *   call (tools marker) < after-tool reply (tool-result marker, which also cancels the call) <
 *   `<think>` (thinking variant);
 * - the chains' second choices, then their first choices (a bigram table).
 * Neighbouring candidates differ by at least GAP·√(2/4) in logit after the output norm, so at
 * temperature ≤ 1 every other token's probability underflows to 0 in float32 (e^-104): sampling
 * picks the same token as greedy decoding.
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
  callArgs: ['"', 'Paris', '"}', '<|im_end|>'],
  thought: ['<think>', 'Let', ' me', ' think', '...', '</think>', '\n\n'],
  endCall: ['</tool_call>', '<|im_end|>'],
};

/** Rows where a reply starts: after `<|im_start|>assistant\n`, and after `</think>` + `\n\n`. */
const REPLY_STARTS = ['\n', '\n\n'];
/**
 * Top of the global order, best first. In a function call's arguments (node-llama-cpp's JSON
 * schema grammar: keys forced, `"` then the table's `Paris` in every string) they spell
 * `{"city":"Paris"}`; in free text, off the chains, the turn ends. A string always opens with the
 * bare `"`, never a merged token (`"}`, `": "`) that would carry other text into the string. `]`
 * before `,`: an array of strings ends after its first item (`["Paris"]`) instead of growing until
 * the window is full (a real agent's tools, such as Codex's, have array parameters).
 */
const GLOBAL_TOP = ['<|im_end|>', '"', '}', ':', ']', ',', '{"'];
/** Bottom of the global order: JSON whitespace is never chosen when anything else is allowed. */
const GLOBAL_BOTTOM = [' ', '\t', '\r', '\n'];
const MERGED = [...new Set([...Object.values(CHAINS).flat(), ...GLOBAL_TOP])].filter(
  (t) => !t.startsWith('<') && t.length > 1,
);

/** Raw logit gap between neighbouring ranks; the output norm scales it by ≥ √(2/4) (two markers on). */
const GAP = 256;
const HEADS = 2;

export function programmedModel(options: { thinking?: boolean } = {}): GgufFile {
  const vocab = buildVocab(MERGED, SPECIAL_TOKENS);
  const V = vocab.tokens.length;
  const constDim = V;
  const markerDims = [V + 1, V + 2];
  const d = Math.ceil((V + 3) / (2 * HEADS)) * 2 * HEADS;
  const headDim = d / HEADS;
  const id = (t: string) => vocab.id(t);

  // Global order: rank V for the first of GLOBAL_TOP down to 1 for the last of GLOBAL_BOTTOM.
  const top = GLOBAL_TOP.map(id);
  const bottom = GLOBAL_BOTTOM.map(id);
  const middle = [...Array(V).keys()].filter((t) => !top.includes(t) && !bottom.includes(t));
  const ordered = [...top, ...middle, ...bottom];
  const global = new Map(ordered.map((t, i) => [t, (V - i) * GAP]));
  /** One tier spans more than the whole global order. */
  const TIER = (V + 2) * GAP;
  const JSON_START = 2 * TIER;
  const PLAIN_START = 3 * TIER;
  const CALL = 4 * TIER;
  const AFTER_TOOL = 5 * TIER;
  const THINK = 6 * TIER;
  const SECOND = 8 * TIER;
  const FIRST = 10 * TIER;

  // logits[next] = global[next] + table[cur][next] + marker terms
  const table = new Map<number, Map<number, number>>();
  const set = (cur: string, next: string, value: number) => {
    const row = table.get(id(cur)) ?? new Map<number, number>();
    row.set(id(next), value);
    table.set(id(cur), row);
  };
  for (const c of Object.values(CHAINS)) {
    for (let i = 0; i + 1 < c.length; i++) set(c[i] as string, c[i + 1] as string, FIRST);
  }
  // JSON mode: the grammar masks `<|im_end|>` inside the string; the second choice closes it.
  set('.', '"}', SECOND);
  // A string argument that cannot end its object yet (more required keys) closes the string only.
  set('Paris', '"', SECOND);
  // llama.cpp server's tool-call grammar wants `</tool_call>` after the call's object (node-llama-cpp
  // writes it itself); where it is allowed, it beats the `,` of a second call, and the end of turn follows.
  set('}', '</tool_call>', SECOND);
  for (const row of REPLY_STARTS) {
    set(row, 'Hello', PLAIN_START);
    set(row, '{"', JSON_START);
  }
  if (options.thinking) set('\n', '<think>', THINK);
  const markerTerms: [number, string, number][] = [
    [0, '<tool_call>', CALL],
    [1, '<tool_call>', -CALL],
    [1, 'The', AFTER_TOOL],
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
          for (const [t, v] of global) at(t, constDim, v);
          for (const [m, t, v] of markerTerms) at(id(t), markerDims[m] as number, v);
          return w;
        default:
          // FFN weights stay zero: the residual passes through unchanged.
          return name.endsWith('norm.weight') ? w.fill(1) : w;
      }
    },
  });
}
