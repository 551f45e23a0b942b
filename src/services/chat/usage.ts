import type { ChatUsage } from '../../engines/chat/types.js';
import type { WireUsage } from './wire-types.js';

export function wireUsage(u: ChatUsage): WireUsage {
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
  };
}
