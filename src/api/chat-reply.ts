import { type Static, Type } from '@sinclair/typebox';
import { PlatformId, ReplyObject, UnixSeconds } from './reply-helpers.js';
import { StringEnum } from './schema-helpers.js';
import { SearchResultEntry } from './web-search-reply.js';

/** docs/wire.md, "Chat completions". */
export const FinishReason = StringEnum([
  'stop',
  'length',
  'tool_calls',
  'sensitive',
  'network_error',
  'model_context_window_exceeded',
]);

export const ChatUsage = ReplyObject({
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  prompt_tokens_details: ReplyObject({ cached_tokens: Type.Integer() }),
  completion_tokens_details: ReplyObject({ reasoning_tokens: Type.Integer() }),
});
export type ChatUsage = Static<typeof ChatUsage>;

export const ToolCall = ReplyObject({
  id: Type.String({ description: '`call_` and 24 lowercase hex characters' }),
  index: Type.Integer(),
  type: Type.Literal('function'),
  function: ReplyObject({
    name: Type.String(),
    arguments: Type.String({ description: 'JSON text (a piece of it in a `tool_stream` fragment)' }),
  }),
});
export type ToolCall = Static<typeof ToolCall>;

const WebSearchResults = Type.Array(SearchResultEntry, { description: 'Results of the web_search tool' });

export const ChatCompletionReply = ReplyObject({
  id: PlatformId,
  request_id: Type.String(),
  created: UnixSeconds,
  object: Type.Literal('chat.completion'),
  model: Type.String(),
  choices: Type.Array(
    ReplyObject({
      index: Type.Literal(0),
      finish_reason: FinishReason,
      message: ReplyObject({
        role: Type.Literal('assistant'),
        content: Type.String(),
        reasoning_content: Type.Optional(Type.String()),
        tool_calls: Type.Optional(Type.Array(ToolCall)),
      }),
    }),
  ),
  usage: ChatUsage,
  web_search: Type.Optional(WebSearchResults),
});
export type ChatCompletionReply = Static<typeof ChatCompletionReply>;

export const ChunkDelta = ReplyObject({
  role: Type.Optional(Type.Literal('assistant')),
  content: Type.Optional(Type.String()),
  reasoning_content: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCall)),
});
export type ChunkDelta = Static<typeof ChunkDelta>;

/** One `data:` event of a chat stream; the last carries `finish_reason` and `usage`. */
export const ChatCompletionChunk = ReplyObject({
  id: PlatformId,
  created: UnixSeconds,
  object: Type.Literal('chat.completion.chunk'),
  model: Type.String(),
  choices: Type.Array(
    ReplyObject({ index: Type.Literal(0), delta: ChunkDelta, finish_reason: Type.Optional(FinishReason) }),
  ),
  usage: Type.Optional(ChatUsage),
  web_search: Type.Optional(WebSearchResults),
});
export type ChatCompletionChunk = Static<typeof ChatCompletionChunk>;
