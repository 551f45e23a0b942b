import type { SpecialToken } from './vocab.js';

/** ChatML control tokens plus the Hermes / Qwen markup tokens that the chat template emits. */
export const SPECIAL_TOKENS: readonly SpecialToken[] = [
  { text: '<|endoftext|>', kind: 'control' },
  { text: '<|im_start|>', kind: 'control' },
  { text: '<|im_end|>', kind: 'control' },
  { text: '<tool_call>', kind: 'user' },
  { text: '</tool_call>', kind: 'user' },
  { text: '<tools>', kind: 'user' },
  { text: '</tools>', kind: 'user' },
  { text: '<tool_response>', kind: 'user' },
  { text: '</tool_response>', kind: 'user' },
  { text: '<think>', kind: 'user' },
  { text: '</think>', kind: 'user' },
];
