import { type Static, Type } from '@sinclair/typebox';
import { StringEnum } from './schema-helpers.js';

export const AGENT_IDS = ['general_translation'] as const;
export const TRANSLATION_STRATEGIES = ['general', 'paraphrase', 'two_step', 'three_step', 'reflection', 'cot'] as const;

const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String() });

export const AgentBody = Type.Object({
  agent_id: StringEnum([...AGENT_IDS]),
  messages: Type.Array(
    Type.Object({
      role: StringEnum(['user', 'assistant', 'system']),
      content: Type.Union([Type.String(), Type.Array(TextPart, { minItems: 1 })]),
    }),
    { minItems: 1 },
  ),
  stream: Type.Optional(Type.Boolean({ default: false })),
  custom_variables: Type.Optional(
    Type.Object({
      glossary: Type.Optional(Type.String({ description: 'One entry a line: `source term => target term`.' })),
      source_lang: Type.Optional(Type.String({ minLength: 1, default: 'auto' })),
      target_lang: Type.Optional(Type.String({ minLength: 1, default: 'zh-CN' })),
      strategy: Type.Optional(StringEnum([...TRANSLATION_STRATEGIES], { default: 'general' })),
      strategy_config: Type.Optional(
        Type.Object({
          general: Type.Optional(Type.Object({ suggestion: Type.Optional(Type.String()) })),
          cot: Type.Optional(
            Type.Object({ reason_lang: Type.Optional(StringEnum(['from', 'to'], { default: 'to' })) }),
          ),
        }),
      ),
    }),
  ),
});
export type AgentBody = Static<typeof AgentBody>;

export const AgentConversationBody = Type.Object({
  agent_id: StringEnum([...AGENT_IDS]),
  conversation_id: Type.String({ minLength: 1, maxLength: 128 }),
  custom_variables: Type.Optional(
    Type.Object({
      include_pdf: Type.Optional(Type.Boolean({ default: false })),
      pages: Type.Optional(
        Type.Array(
          Type.Object({
            position: Type.Integer({ minimum: 1, description: 'Page number, from 1.' }),
            width: Type.Integer({ minimum: 1, maximum: 20000, description: 'Points.' }),
            height: Type.Integer({ minimum: 1, maximum: 20000, description: 'Points.' }),
          }),
          { maxItems: 1000 },
        ),
      ),
    }),
  ),
});
export type AgentConversationBody = Static<typeof AgentConversationBody>;
