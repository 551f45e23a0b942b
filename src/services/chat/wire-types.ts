import type {
  ChatCompletionChunk,
  ChatCompletionReply,
  ChatUsage,
  ChunkDelta,
  ToolCall,
} from '../../api/chat-reply.js';

/** The shapes of docs/wire.md, "Chat completions": the reply schemas of src/api/chat-reply.ts. */
export type WireUsage = ChatUsage;
export type WireToolCall = ToolCall;
export type ChatCompletion = ChatCompletionReply;
export type { ChatCompletionChunk, ChunkDelta };

/** What every chunk and the folded reply of one completion share. */
export interface CompletionIdentity {
  id: string;
  requestId: string;
  created: number;
  model: string;
}
