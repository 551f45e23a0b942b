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
 */
export function detectCapabilities(
  wrapper: ChatWrapper,
  trainedContext: number,
  o: ResolvedLlamaCppOptions,
): ChatEngineCapabilities {
  const tools =
    wrapper instanceof JinjaTemplateChatWrapper
      ? wrapper.usingJinjaFunctionCallTemplate
      : NATIVE_TOOL_WRAPPERS.has(wrapper.wrapperName);
  const maxContext = Math.min(o.contextSize, trainedContext > 0 ? trainedContext : o.contextSize);
  return {
    tools,
    thinking: wrapper.settings.segments?.thought != null,
    json: true,
    vision: false,
    maxContext,
    maxOutput: Math.min(o.maxOutput, maxContext),
  };
}
