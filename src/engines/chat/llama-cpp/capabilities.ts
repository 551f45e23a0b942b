import { type ChatWrapper, JinjaTemplateChatWrapper } from 'node-llama-cpp';
import type { ChatEngineCapabilities } from '../types.js';
import type { ResolvedLlamaCppOptions } from './options.js';

/** node-llama-cpp wrappers whose format has a native function-calling syntax of the model family. */
const NATIVE_TOOL_WRAPPERS = new Set([
  'Qwen',
  'Llama 3.1',
  'Llama 3.2 lightweight',
  'Functionary',
  'Mistral',
  'DeepSeek',
  'Harmony',
  'Seed',
  'Gemma 4',
]);

/**
 * Tools: the chat template's own function-call syntax was recognised (node-llama-cpp can prompt
 * any model with a generic syntax, but a model not trained for it rarely calls well). Thinking:
 * the wrapper has a thought segment (e.g. `<think>` in the template or the vocabulary).
 * The context window is the one the engine serves, `servedContext` tokens a sequence (what its
 * prompt check holds a request to), even past the model's trained length: that is what clients
 * are told (`max_input_tokens`) and what they may send.
 */
export function detectCapabilities(
  wrapper: ChatWrapper,
  servedContext: number,
  o: Pick<ResolvedLlamaCppOptions, 'maxOutput'>,
): ChatEngineCapabilities {
  const tools =
    wrapper instanceof JinjaTemplateChatWrapper
      ? wrapper.usingJinjaFunctionCallTemplate
      : NATIVE_TOOL_WRAPPERS.has(wrapper.wrapperName);
  const maxContext = servedContext;
  return {
    tools,
    thinking: wrapper.settings.segments?.thought != null,
    json: true,
    vision: false,
    maxContext,
    maxOutput: Math.min(o.maxOutput, maxContext),
  };
}
