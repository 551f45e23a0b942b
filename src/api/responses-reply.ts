import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ReplyObject, UnixSeconds } from './reply-helpers.js';
import { Discriminated, StringEnum } from './schema-helpers.js';

/**
 * The replies of the Responses API (docs/wire.md, "Responses"): the Response object, its output
 * items and the stream's events, in OpenAI's shapes, which carry `null` for what is absent.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const openObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const ItemStatus = StringEnum(['in_progress', 'completed', 'incomplete']);

export const OutputText = ReplyObject({
  type: Type.Literal('output_text'),
  annotations: Type.Array(openObject('An annotation (none are made here)')),
  logprobs: Type.Array(openObject('A log probability (none are made here)')),
  text: Type.String(),
});
export type OutputText = Static<typeof OutputText>;

export const MessageOutput = ReplyObject({
  id: Type.String({ description: '`msg_…`' }),
  type: Type.Literal('message'),
  status: ItemStatus,
  role: Type.Literal('assistant'),
  content: Type.Array(OutputText),
});

export const FunctionCallOutput = ReplyObject({
  id: Type.String({ description: '`fc_…`' }),
  type: Type.Literal('function_call'),
  status: ItemStatus,
  arguments: Type.String({ description: 'JSON text of the arguments' }),
  call_id: Type.String({ description: '`call_` and 24 lowercase hex characters' }),
  name: Type.String(),
  namespace: Type.Optional(Type.String({ description: 'The namespace tool the function belongs to' })),
});

export const CustomToolCallOutput = ReplyObject({
  id: Type.String({ description: '`ctc_…`' }),
  type: Type.Literal('custom_tool_call'),
  status: ItemStatus,
  call_id: Type.String(),
  name: Type.String(),
  namespace: Type.Optional(Type.String({ description: 'The namespace tool the tool belongs to' })),
  input: Type.String(),
});

export const SummaryText = ReplyObject({ type: Type.Literal('summary_text'), text: Type.String() });
export const ReasoningText = ReplyObject({ type: Type.Literal('reasoning_text'), text: Type.String() });

export const ReasoningOutput = ReplyObject({
  id: Type.String({ description: '`rs_…`' }),
  type: Type.Literal('reasoning'),
  status: ItemStatus,
  summary: Type.Array(SummaryText, { description: 'The thought, when `reasoning.summary` asks for it' }),
  content: Type.Optional(Type.Array(ReasoningText, { description: 'The thought, otherwise' })),
});

export const WebSearchCallOutput = ReplyObject({
  id: Type.String({ description: '`ws_…`' }),
  type: Type.Literal('web_search_call'),
  status: StringEnum(['in_progress', 'searching', 'completed', 'failed']),
  action: ReplyObject({
    type: Type.Literal('search'),
    query: Type.String(),
    sources: Type.Optional(Type.Array(ReplyObject({ type: Type.Literal('url'), url: Type.String() }))),
  }),
});

export const OutputItem = Discriminated('type', [
  ReasoningOutput,
  WebSearchCallOutput,
  MessageOutput,
  FunctionCallOutput,
  CustomToolCallOutput,
]);
export type OutputItem = Static<typeof OutputItem>;

export const ResponseUsage = ReplyObject({
  input_tokens: Type.Integer(),
  input_tokens_details: ReplyObject({ cached_tokens: Type.Integer() }),
  output_tokens: Type.Integer(),
  output_tokens_details: ReplyObject({ reasoning_tokens: Type.Integer() }),
  total_tokens: Type.Integer(),
});
export type ResponseUsage = Static<typeof ResponseUsage>;

export const ResponseStatus = StringEnum(['in_progress', 'completed', 'incomplete', 'failed']);

export const ResponseObject = ReplyObject(
  {
    id: Type.String({ description: '`resp_` and the request id' }),
    object: Type.Literal('response'),
    created_at: UnixSeconds,
    status: ResponseStatus,
    background: Type.Boolean(),
    error: Nullable(ReplyObject({ code: Type.String(), message: Type.String() })),
    incomplete_details: Nullable(ReplyObject({ reason: StringEnum(['max_output_tokens', 'content_filter']) })),
    instructions: Nullable(Type.String()),
    max_output_tokens: Nullable(Type.Integer()),
    model: Type.String(),
    output: Type.Array(OutputItem),
    parallel_tool_calls: Type.Boolean(),
    previous_response_id: Nullable(Type.String()),
    prompt_cache_key: Nullable(Type.String()),
    reasoning: ReplyObject({ effort: Nullable(Type.String()), summary: Nullable(Type.String()) }),
    safety_identifier: Nullable(Type.String()),
    store: Type.Boolean(),
    temperature: Type.Number(),
    text: openObject('`format` (and `verbosity`) as asked'),
    tool_choice: Type.Union([Type.String(), openObject('A named tool')]),
    tools: Type.Array(openObject('A tool as given')),
    top_p: Type.Number(),
    truncation: StringEnum(['auto', 'disabled']),
    usage: Nullable(ResponseUsage),
    user: Nullable(Type.String()),
    metadata: Type.Record(Type.String(), Type.String()),
  },
  'A response of the Responses API',
);
export type ResponseObject = Static<typeof ResponseObject>;

export const ResponseDeleted = ReplyObject({
  id: Type.String(),
  object: Type.Literal('response'),
  deleted: Type.Literal(true),
});

/** The error body of this API (docs/wire.md, "Responses"): OpenAI's shape. */
export const OpenAiErrorReply = ReplyObject(
  {
    error: ReplyObject({
      message: Type.String(),
      type: Type.String({ description: '`invalid_request_error`, `authentication_error`, … by status' }),
      param: Nullable(Type.String()),
      code: Nullable(Type.String()),
    }),
  },
  'A failed call, in the shape of the OpenAI API',
);
export type OpenAiErrorReply = Static<typeof OpenAiErrorReply>;

// The stream's events (docs/wire.md, "Responses", the event grammar).
const seq = { sequence_number: Type.Integer({ minimum: 0 }) };
const lifecycle = (type: string) => ReplyObject({ type: Type.Literal(type), ...seq, response: ResponseObject });
const inItem = { output_index: Type.Integer({ minimum: 0 }), item_id: Type.String() };
const itemEvent = (type: string) =>
  ReplyObject({ type: Type.Literal(type), ...seq, output_index: Type.Integer({ minimum: 0 }), item: OutputItem });
const contentPart = Discriminated('type', [OutputText, ReasoningText]);
const partEvent = (type: string) =>
  ReplyObject({ type: Type.Literal(type), ...seq, ...inItem, content_index: Type.Integer(), part: contentPart });
const summaryPartEvent = (type: string) =>
  ReplyObject({ type: Type.Literal(type), ...seq, ...inItem, summary_index: Type.Integer(), part: SummaryText });

export const ResponseStreamEvent = Discriminated('type', [
  lifecycle('response.created'),
  lifecycle('response.in_progress'),
  lifecycle('response.completed'),
  lifecycle('response.incomplete'),
  lifecycle('response.failed'),
  itemEvent('response.output_item.added'),
  itemEvent('response.output_item.done'),
  partEvent('response.content_part.added'),
  partEvent('response.content_part.done'),
  ReplyObject({
    type: Type.Literal('response.output_text.delta'),
    ...seq,
    ...inItem,
    content_index: Type.Integer(),
    delta: Type.String(),
    logprobs: Type.Array(openObject('none are made here')),
  }),
  ReplyObject({
    type: Type.Literal('response.output_text.done'),
    ...seq,
    ...inItem,
    content_index: Type.Integer(),
    text: Type.String(),
    logprobs: Type.Array(openObject('none are made here')),
  }),
  ReplyObject({
    type: Type.Literal('response.function_call_arguments.delta'),
    ...seq,
    ...inItem,
    delta: Type.String(),
  }),
  ReplyObject({
    type: Type.Literal('response.function_call_arguments.done'),
    ...seq,
    ...inItem,
    name: Type.String(),
    arguments: Type.String(),
  }),
  ReplyObject({ type: Type.Literal('response.custom_tool_call_input.delta'), ...seq, ...inItem, delta: Type.String() }),
  ReplyObject({ type: Type.Literal('response.custom_tool_call_input.done'), ...seq, ...inItem, input: Type.String() }),
  summaryPartEvent('response.reasoning_summary_part.added'),
  summaryPartEvent('response.reasoning_summary_part.done'),
  ReplyObject({
    type: Type.Literal('response.reasoning_summary_text.delta'),
    ...seq,
    ...inItem,
    summary_index: Type.Integer(),
    delta: Type.String(),
  }),
  ReplyObject({
    type: Type.Literal('response.reasoning_summary_text.done'),
    ...seq,
    ...inItem,
    summary_index: Type.Integer(),
    text: Type.String(),
  }),
  ReplyObject({
    type: Type.Literal('response.reasoning_text.delta'),
    ...seq,
    ...inItem,
    content_index: Type.Integer(),
    delta: Type.String(),
  }),
  ReplyObject({
    type: Type.Literal('response.reasoning_text.done'),
    ...seq,
    ...inItem,
    content_index: Type.Integer(),
    text: Type.String(),
  }),
  // Sent while the model has said nothing for a while (a long prompt being read), as OpenAI does.
  ReplyObject({ type: Type.Literal('keepalive'), ...seq }),
  ReplyObject({ type: Type.Literal('response.web_search_call.in_progress'), ...seq, ...inItem }),
  ReplyObject({ type: Type.Literal('response.web_search_call.searching'), ...seq, ...inItem }),
  ReplyObject({ type: Type.Literal('response.web_search_call.completed'), ...seq, ...inItem }),
  ReplyObject({
    type: Type.Literal('error'),
    ...seq,
    code: Nullable(Type.String()),
    message: Type.String(),
    param: Nullable(Type.String()),
    error: ReplyObject({
      type: Type.String(),
      code: Nullable(Type.String()),
      message: Type.String(),
      param: Nullable(Type.String()),
    }),
  }),
]);
export type ResponseStreamEvent = Static<typeof ResponseStreamEvent>;
