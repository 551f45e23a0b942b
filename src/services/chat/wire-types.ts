import type { FinishReason } from '../../engines/chat/types.js';
import type { SearchResultEntry } from '../../search/result-entry.js';

/** Shapes of docs/wire.md, "Chat completions" on the wire. */
export interface WireUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export interface WireToolCall {
  id: string;
  index: number;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatCompletion {
  id: string;
  request_id: string;
  created: number;
  object: 'chat.completion';
  model: string;
  choices: {
    index: 0;
    finish_reason: FinishReason;
    message: { role: 'assistant'; content: string; reasoning_content?: string; tool_calls?: WireToolCall[] };
  }[];
  usage: WireUsage;
  web_search?: SearchResultEntry[];
}

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: WireToolCall[];
}

export interface ChatCompletionChunk {
  id: string;
  created: number;
  object: 'chat.completion.chunk';
  model: string;
  choices: { index: 0; delta: ChunkDelta; finish_reason?: FinishReason }[];
  usage?: WireUsage;
  web_search?: SearchResultEntry[];
}

/** What every chunk and the folded reply of one completion share. */
export interface CompletionIdentity {
  id: string;
  requestId: string;
  created: number;
  model: string;
}
