import { type Static, Type } from '@sinclair/typebox';
import { CHAT_MODEL_CODES } from '../models/catalogue.js';
import { MAX_TOOLS } from './common.js';
import { Discriminated, StringEnum } from './schema-helpers.js';

/**
 * The request of `POST {base}/responses` (docs/wire.md, "Responses"): OpenAI's Responses API over
 * the chat service. Items and parts are open objects: clients send output items back as input with
 * the fields the server gave them (`id`, `status`, `annotations`), and those are ignored.
 */

const open = { additionalProperties: true } as const;

const InputText = Type.Object({ type: Type.Literal('input_text'), text: Type.String() }, open);
const InputImage = Type.Object(
  {
    type: Type.Literal('input_image'),
    image_url: Type.Optional(Type.String({ description: 'A URL or a `data:` URL' })),
    file_id: Type.Optional(Type.String()),
    detail: Type.Optional(StringEnum(['low', 'high', 'auto', 'original'])),
  },
  open,
);
const InputFile = Type.Object(
  {
    type: Type.Literal('input_file'),
    file_url: Type.Optional(Type.String()),
    file_data: Type.Optional(Type.String()),
    file_id: Type.Optional(Type.String()),
    filename: Type.Optional(Type.String()),
  },
  open,
);
const OutputText = Type.Object({ type: Type.Literal('output_text'), text: Type.String() }, open);
const Refusal = Type.Object({ type: Type.Literal('refusal'), refusal: Type.String() }, open);

export const InputContentPart = Discriminated('type', [InputText, InputImage, InputFile, OutputText, Refusal]);

const MessageItem = Type.Object(
  {
    type: Type.Literal('message', { description: 'May be left out (server/normalize-body.ts)' }),
    role: StringEnum(['user', 'assistant', 'system', 'developer']),
    content: Type.Union([Type.String(), Type.Array(InputContentPart)], {
      description:
        'A string, or content parts (`input_text`, `input_image`, `input_file`; `output_text` from the assistant)',
    }),
  },
  open,
);

const FunctionCallItem = Type.Object(
  {
    type: Type.Literal('function_call'),
    call_id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    namespace: Type.Optional(Type.String({ description: 'The namespace tool the function belongs to' })),
    arguments: Type.String({ description: 'JSON text of the arguments' }),
  },
  open,
);

const ToolOutput = Type.Union([Type.String(), Type.Array(InputContentPart)]);

const FunctionCallOutputItem = Type.Object(
  { type: Type.Literal('function_call_output'), call_id: Type.String({ minLength: 1 }), output: ToolOutput },
  open,
);

const CustomToolCallItem = Type.Object(
  {
    type: Type.Literal('custom_tool_call'),
    call_id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    namespace: Type.Optional(Type.String({ description: 'The namespace tool the function belongs to' })),
    input: Type.String(),
  },
  open,
);

const CustomToolCallOutputItem = Type.Object(
  { type: Type.Literal('custom_tool_call_output'), call_id: Type.String({ minLength: 1 }), output: ToolOutput },
  open,
);

const TextPart = (type: string) => Type.Object({ type: Type.Literal(type), text: Type.String() }, open);

const ReasoningItem = Type.Object(
  {
    type: Type.Literal('reasoning'),
    summary: Type.Optional(Type.Array(TextPart('summary_text'))),
    content: Type.Optional(Type.Array(TextPart('reasoning_text'))),
    encrypted_content: Type.Optional(Type.String()),
  },
  open,
);

/** Item types of OpenAI's hosted tools, which the server does not run: refused with a clear message. */
export const UNSERVED_ITEM_TYPES = [
  'item_reference',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'compaction',
] as const;

const OtherItem = Type.Object({ type: StringEnum([...UNSERVED_ITEM_TYPES]) }, open);

/** One input item; a message may leave out its `type`. */
export const InputItem = Discriminated('type', [
  MessageItem,
  FunctionCallItem,
  FunctionCallOutputItem,
  CustomToolCallItem,
  CustomToolCallOutputItem,
  ReasoningItem,
  OtherItem,
]);
export type InputItem = Static<typeof InputItem>;

export const FunctionToolParam = Type.Object(
  {
    type: Type.Literal('function'),
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
    description: Type.Optional(Type.String()),
    parameters: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'JSON Schema' })),
    strict: Type.Optional(Type.Boolean()),
  },
  open,
);

/** A free-form tool: the model writes its input as text (Codex's `apply_patch`). */
export const CustomToolParam = Type.Object(
  {
    type: Type.Literal('custom'),
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
    description: Type.Optional(Type.String()),
    format: Type.Optional(Type.Object({ type: StringEnum(['text', 'grammar']) }, open)),
  },
  open,
);

/** Functions and free-form tools under a shared name (Codex's sub-agent tools). */
export const NamespaceToolParam = Type.Object(
  {
    type: Type.Literal('namespace'),
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
    description: Type.Optional(Type.String()),
    tools: Type.Array(Discriminated('type', [FunctionToolParam, CustomToolParam]), {
      minItems: 1,
      maxItems: MAX_TOOLS,
    }),
  },
  open,
);

/** The hosted web search, served on the server's own search index. */
export const WebSearchToolParam = Type.Object(
  {
    type: StringEnum(['web_search', 'web_search_preview', 'web_search_2025_08_26', 'web_search_preview_2025_03_11']),
    search_context_size: Type.Optional(StringEnum(['low', 'medium', 'high'])),
    filters: Type.Optional(
      Type.Object({ allowed_domains: Type.Optional(Type.Array(Type.String(), { maxItems: 20 })) }, open),
    ),
  },
  open,
);

/** OpenAI's hosted tools that the server does not run: refused with a clear message. */
export const UNSERVED_TOOL_TYPES = [
  'file_search',
  'computer_use',
  'computer_use_preview',
  'code_interpreter',
  'image_generation',
  'mcp',
  'local_shell',
  'shell',
  'apply_patch',
  'tool_search',
] as const;

const OtherTool = Type.Object({ type: StringEnum([...UNSERVED_TOOL_TYPES]) }, open);

export const ResponseToolParam = Discriminated('type', [
  FunctionToolParam,
  CustomToolParam,
  NamespaceToolParam,
  WebSearchToolParam,
  OtherTool,
]);
export type ResponseToolParam = Static<typeof ResponseToolParam>;

export const ToolChoiceParam = Type.Union([
  StringEnum(['none', 'auto', 'required']),
  Type.Object({ type: Type.Literal('function'), name: Type.String({ minLength: 1 }) }, open),
  Type.Object({ type: Type.Literal('custom'), name: Type.String({ minLength: 1 }) }, open),
]);
export type ToolChoiceParam = Static<typeof ToolChoiceParam>;

const TextFormat = Discriminated('type', [
  Type.Object({ type: Type.Literal('text') }, open),
  Type.Object({ type: Type.Literal('json_object') }, open),
  Type.Object(
    {
      type: Type.Literal('json_schema'),
      name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-zA-Z0-9_-]+$' }),
      schema: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of the reply' }),
      description: Type.Optional(Type.String()),
      strict: Type.Optional(Type.Boolean()),
    },
    open,
  ),
]);

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export const ResponseCreateBody = Type.Object(
  {
    model: StringEnum(CHAT_MODEL_CODES),
    input: Type.Optional(
      Type.Union([Type.String(), Type.Array(InputItem)], {
        description: 'Text, or a list of items: messages, function calls and their outputs, reasoning',
      }),
    ),
    instructions: Type.Optional(Type.String({ description: 'A system message put first; not carried over' })),
    tools: Type.Optional(Type.Array(ResponseToolParam, { maxItems: MAX_TOOLS })),
    tool_choice: Type.Optional(ToolChoiceParam),
    parallel_tool_calls: Type.Optional(Type.Boolean({ default: true })),
    max_output_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: 131072 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Default per model series.' })),
    top_p: Type.Optional(Type.Number({ minimum: 0.01, maximum: 1, description: 'Default per model series.' })),
    reasoning: Type.Optional(
      Type.Object(
        {
          effort: Type.Optional(StringEnum([...REASONING_EFFORTS])),
          summary: Type.Optional(StringEnum(['auto', 'concise', 'detailed'])),
          generate_summary: Type.Optional(StringEnum(['auto', 'concise', 'detailed'])),
        },
        open,
      ),
    ),
    text: Type.Optional(
      Type.Object(
        { format: Type.Optional(TextFormat), verbosity: Type.Optional(StringEnum(['low', 'medium', 'high'])) },
        open,
      ),
    ),
    stream: Type.Optional(Type.Boolean({ default: false })),
    store: Type.Optional(
      Type.Boolean({ default: true, description: 'Keep the response for GET and previous_response_id' }),
    ),
    previous_response_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    include: Type.Optional(Type.Array(Type.String(), { maxItems: 16 })),
    metadata: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 }), { maxProperties: 16 }),
    ),
    user: Type.Optional(Type.String({ maxLength: 512 })),
    safety_identifier: Type.Optional(Type.String({ maxLength: 512 })),
    prompt_cache_key: Type.Optional(Type.String({ maxLength: 512 })),
    truncation: Type.Optional(StringEnum(['auto', 'disabled'])),
    background: Type.Optional(Type.Boolean()),
    max_tool_calls: Type.Optional(Type.Integer({ minimum: 1 })),
    top_logprobs: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
  },
  open,
);
export type ResponseCreateBody = Static<typeof ResponseCreateBody>;

export const ResponseIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 100, description: '`resp_…`' }),
});
