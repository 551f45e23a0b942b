import { type Static, Type } from '@sinclair/typebox';
import { CHAT_MODEL_CODES } from '../models/catalogue.js';
import { FunctionTool, MAX_TOOLS, RequestId, UserId } from './common.js';
import { ChatMessage } from './messages.js';
import { Discriminated, StringEnum } from './schema-helpers.js';

const WebSearchTool = Type.Object({
  type: Type.Literal('web_search'),
  web_search: Type.Object({
    enable: Type.Optional(Type.Boolean()),
    search_engine: Type.Optional(Type.String()),
    search_query: Type.Optional(Type.String()),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    search_domain_filter: Type.Optional(Type.String()),
    search_recency_filter: Type.Optional(StringEnum(['oneDay', 'oneWeek', 'oneMonth', 'oneYear', 'noLimit'])),
    content_size: Type.Optional(StringEnum(['medium', 'high'])),
    result_sequence: Type.Optional(StringEnum(['before', 'after'])),
    search_result: Type.Optional(Type.Boolean()),
    require_search: Type.Optional(Type.Boolean()),
    search_prompt: Type.Optional(Type.String()),
  }),
});

const RetrievalTool = Type.Object({
  type: Type.Literal('retrieval'),
  retrieval: Type.Object({
    knowledge_id: Type.String({ minLength: 1, description: 'A document collection of the search index.' }),
    prompt_template: Type.Optional(Type.String({ description: 'Uses {{knowledge}} and {{question}}.' })),
  }),
});

export const ChatTool = Discriminated('type', [FunctionTool, RetrievalTool, WebSearchTool]);

export const ChatCompletionBody = Type.Object({
  model: StringEnum(CHAT_MODEL_CODES, { default: 'gen-5.2' }),
  messages: Type.Array(ChatMessage, { minItems: 1 }),
  do_sample: Type.Optional(Type.Boolean({ default: true, description: 'false: greedy decoding.' })),
  stream: Type.Optional(Type.Boolean({ default: false })),
  thinking: Type.Optional(
    Type.Object({
      type: Type.Optional(StringEnum(['enabled', 'disabled'], { default: 'enabled' })),
      clear_thinking: Type.Optional(Type.Boolean({ default: true })),
    }),
  ),
  reasoning_effort: Type.Optional(
    StringEnum(['max', 'xhigh', 'high', 'medium', 'low', 'minimal', 'none'], { default: 'max' }),
  ),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Default per model series.' })),
  top_p: Type.Optional(Type.Number({ minimum: 0.01, maximum: 1, description: 'Default per model series.' })),
  max_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 131072 })),
  tool_stream: Type.Optional(Type.Boolean({ default: false })),
  tools: Type.Optional(Type.Array(ChatTool, { maxItems: MAX_TOOLS })),
  tool_choice: Type.Optional(StringEnum(['auto'])),
  stop: Type.Optional(
    Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 4 })], { description: 'Up to 4 stop words.' }),
  ),
  response_format: Type.Optional(Type.Object({ type: StringEnum(['text', 'json_object'], { default: 'text' }) })),
  request_id: Type.Optional(RequestId),
  user_id: Type.Optional(UserId),
});
export type ChatCompletionBody = Static<typeof ChatCompletionBody>;
