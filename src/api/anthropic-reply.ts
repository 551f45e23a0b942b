import { type Static, Type } from '@sinclair/typebox';
import { StringEnum } from './schema-helpers.js';

/** Replies of the Anthropic Messages API (docs/wire.md, "Anthropic Messages"), in Anthropic's shapes. */

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const AnthropicUsage = Type.Object({
  input_tokens: Type.Integer({ description: 'Prompt tokens evaluated for this call (not read from a reused prefix)' }),
  output_tokens: Type.Integer(),
  cache_creation_input_tokens: Type.Integer({ description: 'Always 0: nothing is written to a cache on request' }),
  cache_read_input_tokens: Type.Integer({ description: 'Prompt tokens served from a reused prefix' }),
});
export type AnthropicUsage = Static<typeof AnthropicUsage>;

const TextContent = Type.Object({ type: Type.Literal('text'), text: Type.String() });
const ThinkingContent = Type.Object({
  type: Type.Literal('thinking'),
  thinking: Type.String(),
  signature: Type.String(),
});
const ToolUseContent = Type.Object({
  type: Type.Literal('tool_use'),
  id: Type.String({ description: '`toolu_` and 24 hex characters' }),
  name: Type.String(),
  input: Type.Object({}, { additionalProperties: true }),
});
export const ContentBlock = Type.Union([ThinkingContent, TextContent, ToolUseContent]);
export type ContentBlock = Static<typeof ContentBlock>;

export const StopReason = StringEnum([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'refusal',
  'model_context_window_exceeded',
]);
export type StopReason = Static<typeof StopReason>;

export const AnthropicMessage = Type.Object({
  id: Type.String({ description: '`msg_` and the request id' }),
  type: Type.Literal('message'),
  role: Type.Literal('assistant'),
  model: Type.String({ description: 'The model name the request gave' }),
  content: Type.Array(ContentBlock),
  stop_reason: Type.Union([StopReason, Type.Null()]),
  stop_sequence: Nullable(Type.String()),
  usage: AnthropicUsage,
});
export type AnthropicMessage = Static<typeof AnthropicMessage>;

export const AnthropicStreamEvent = Type.Object(
  {
    type: StringEnum([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
      'ping',
      'error',
    ]),
  },
  {
    additionalProperties: true,
    description:
      'One server-sent event, framed `event: <type>` + `data: <json>`: message_start, then per block content_block_start, content_block_delta (text_delta, input_json_delta, thinking_delta, signature_delta) and content_block_stop, then message_delta and message_stop; ping while waiting; error after the stream began',
  },
);

export const AnthropicErrorReply = Type.Object({
  type: Type.Literal('error'),
  error: Type.Object({
    type: StringEnum([
      'invalid_request_error',
      'authentication_error',
      'permission_error',
      'not_found_error',
      'request_too_large',
      'rate_limit_error',
      'api_error',
      'overloaded_error',
    ]),
    message: Type.String(),
  }),
  request_id: Type.Optional(Type.String()),
});
export type AnthropicErrorReply = Static<typeof AnthropicErrorReply>;

export const CountTokensReply = Type.Object({
  input_tokens: Type.Integer({ description: 'Equal to the `input_tokens` the same request to /messages reports' }),
});

export const AnthropicModel = Type.Object({
  type: Type.Literal('model'),
  id: Type.String(),
  display_name: Type.String(),
  created_at: Type.String({ description: 'RFC 3339' }),
  max_input_tokens: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Context window of the serving deployment',
  }),
  max_tokens: Type.Union([Type.Integer(), Type.Null()], { description: 'Largest `max_tokens` of the deployment' }),
});
export type AnthropicModel = Static<typeof AnthropicModel>;

export const AnthropicModelList = Type.Object({
  data: Type.Array(AnthropicModel),
  first_id: Type.Union([Type.String(), Type.Null()]),
  last_id: Type.Union([Type.String(), Type.Null()]),
  has_more: Type.Boolean(),
});
