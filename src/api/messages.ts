import { Type } from '@sinclair/typebox';
import { UserContent } from './common.js';
import { Discriminated } from './schema-helpers.js';

export const SystemMessage = Type.Object({ role: Type.Literal('system'), content: Type.String() });
export const UserMessage = Type.Object({ role: Type.Literal('user'), content: UserContent });

export const ToolCallInput = Type.Object({
  id: Type.String(),
  type: Type.Optional(Type.Literal('function')),
  index: Type.Optional(Type.Integer({ minimum: 0 })),
  function: Type.Object({
    name: Type.String({ minLength: 1 }),
    arguments: Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })], {
      description: 'JSON text of the arguments (an object is accepted too).',
    }),
  }),
});

const assistantFields = {
  role: Type.Literal('assistant'),
  content: Type.Optional(Type.String()),
  reasoning_content: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCallInput)),
};
export const AssistantMessage = Type.Object(assistantFields);

export const ToolMessage = Type.Object({
  role: Type.Literal('tool'),
  content: Type.String(),
  tool_call_id: Type.String({ minLength: 1 }),
});

export const ChatMessage = Discriminated('role', [SystemMessage, UserMessage, AssistantMessage, ToolMessage]);
/** The tokenizer takes no tool messages. */
export const TokenizerMessage = Discriminated('role', [SystemMessage, UserMessage, AssistantMessage]);
