import { type Static, Type } from '@sinclair/typebox';
import { MAX_TOOLS } from './common.js';
import { Discriminated, StringEnum } from './schema-helpers.js';

/**
 * The request of `POST /anthropic/v1/messages` (docs/wire.md, "Anthropic Messages"): Anthropic's
 * Messages API over the chat service. Objects are open: fields that do not change the answer
 * (`cache_control`, `citations`, a client's own extras) are accepted and ignored.
 */

const open = { additionalProperties: true } as const;

const CacheControl = Type.Optional(
  Type.Object({ type: Type.String() }, { ...open, description: 'Accepted; prompt reuse is automatic here' }),
);

export const TextBlock = Type.Object(
  { type: Type.Literal('text'), text: Type.String(), cache_control: CacheControl },
  open,
);

const Base64Source = Type.Object(
  { type: Type.Literal('base64'), media_type: Type.String(), data: Type.String() },
  open,
);
const UrlSource = Type.Object({ type: Type.Literal('url'), url: Type.String({ minLength: 1 }) }, open);
const TextSource = Type.Object(
  { type: Type.Literal('text'), media_type: Type.Optional(Type.String()), data: Type.String() },
  open,
);
const ContentSource = Type.Object(
  { type: Type.Literal('content'), content: Type.Union([Type.String(), Type.Array(TextBlock)]) },
  open,
);
const FileSource = Type.Object({ type: Type.Literal('file'), file_id: Type.String() }, open);

const ImageBlock = Type.Object(
  {
    type: Type.Literal('image'),
    source: Discriminated('type', [Base64Source, UrlSource, FileSource]),
    cache_control: CacheControl,
  },
  open,
);

const DocumentBlock = Type.Object(
  {
    type: Type.Literal('document'),
    source: Discriminated('type', [TextSource, ContentSource, Base64Source, UrlSource, FileSource]),
    title: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    context: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    cache_control: CacheControl,
  },
  open,
);

const ToolUseBlock = Type.Object(
  {
    type: Type.Literal('tool_use'),
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    input: Type.Unknown({ description: 'The arguments, as an object' }),
    cache_control: CacheControl,
  },
  open,
);

const ToolResultBlock = Type.Object(
  {
    type: Type.Literal('tool_result'),
    tool_use_id: Type.String({ minLength: 1 }),
    content: Type.Optional(
      Type.Union([Type.String(), Type.Array(Type.Object({ type: Type.String() }, open))], {
        description: 'A string, or blocks (`text`; `image` and `document` go in as a note)',
      }),
    ),
    is_error: Type.Optional(Type.Boolean()),
    cache_control: CacheControl,
  },
  open,
);

const ThinkingBlock = Type.Object(
  { type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.Optional(Type.String()) },
  open,
);
const RedactedThinkingBlock = Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() }, open);

/** Block types of Anthropic's server tools, which the server does not run: refused with a clear message. */
export const UNSERVED_BLOCK_TYPES = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'search_result',
  'tool_reference',
  'tool_search_tool_result',
] as const;
const OtherBlock = Type.Object({ type: StringEnum([...UNSERVED_BLOCK_TYPES]) }, open);

export const ContentBlockParam = Discriminated('type', [
  TextBlock,
  ImageBlock,
  DocumentBlock,
  ToolUseBlock,
  ToolResultBlock,
  ThinkingBlock,
  RedactedThinkingBlock,
  OtherBlock,
]);
export type ContentBlockParam = Static<typeof ContentBlockParam>;

export const MessageParam = Type.Object(
  {
    role: StringEnum(['user', 'assistant', 'system'], {
      description: '`system`: an instruction in the course of the conversation (the `mid-conversation-system` beta)',
    }),
    content: Type.Union([Type.String(), Type.Array(ContentBlockParam)], {
      description: 'A string, or content blocks',
    }),
  },
  open,
);
export type MessageParam = Static<typeof MessageParam>;

export const ToolParam = Type.Object(
  {
    type: Type.Optional(Type.String({ description: '`custom` (or left out); server tools are not run here' })),
    name: Type.String({ minLength: 1, maxLength: 128, pattern: '^[a-zA-Z0-9_-]+$' }),
    description: Type.Optional(Type.String()),
    input_schema: Type.Optional(Type.Object({}, { ...open, description: 'JSON Schema of the input' })),
    cache_control: CacheControl,
  },
  open,
);
export type ToolParam = Static<typeof ToolParam>;

const ToolChoice = Discriminated('type', [
  Type.Object({ type: Type.Literal('auto'), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }, open),
  Type.Object({ type: Type.Literal('any'), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }, open),
  Type.Object(
    {
      type: Type.Literal('tool'),
      name: Type.String({ minLength: 1 }),
      disable_parallel_tool_use: Type.Optional(Type.Boolean()),
    },
    open,
  ),
  Type.Object({ type: Type.Literal('none') }, open),
]);

const Thinking = Discriminated('type', [
  Type.Object(
    {
      type: Type.Literal('enabled'),
      budget_tokens: Type.Integer({ minimum: 1, description: 'Accepted; thinking ends within `max_tokens`' }),
    },
    open,
  ),
  Type.Object({ type: Type.Literal('disabled') }, open),
  Type.Object({ type: Type.Literal('adaptive') }, open),
]);

const messageFields = {
  model: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'A model code (`gen-…`), or a Claude model name resolved by `anthropic.models`',
  }),
  messages: Type.Array(MessageParam, { minItems: 1 }),
  system: Type.Optional(
    Type.Union([Type.String(), Type.Array(TextBlock)], { description: 'A string, or text blocks' }),
  ),
  tools: Type.Optional(Type.Array(ToolParam, { maxItems: MAX_TOOLS })),
  tool_choice: Type.Optional(ToolChoice),
  thinking: Type.Optional(Thinking),
};

export const MessagesBody = Type.Object(
  {
    ...messageFields,
    max_tokens: Type.Integer({ minimum: 1, description: 'Capped at the serving deployment’s largest output' }),
    stop_sequences: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { maxItems: 16 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: 0 })),
    metadata: Type.Optional(Type.Object({ user_id: Type.Optional(Type.Union([Type.String(), Type.Null()])) }, open)),
    stream: Type.Optional(Type.Boolean()),
  },
  open,
);
export type MessagesBody = Static<typeof MessagesBody>;

export const CountTokensBody = Type.Object(messageFields, open);
export type CountTokensBody = Static<typeof CountTokensBody>;

export const ModelIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 256 }) });
