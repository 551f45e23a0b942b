import { type Static, Type } from '@sinclair/typebox';
import { PlatformId, ReplyObject } from './reply-helpers.js';
import { StringEnum } from './schema-helpers.js';

/** docs/wire.md, "Agents". */
const AgentUsage = ReplyObject({
  prompt_tokens: Type.Integer(),
  completion_tokens: Type.Integer(),
  total_tokens: Type.Integer(),
  total_calls: Type.Integer({ description: 'Model calls made' }),
});

const AgentFinishReason = StringEnum(['stop', 'length', 'network_error']);

const TextMessage = ReplyObject({
  role: Type.Literal('assistant'),
  content: ReplyObject({ type: Type.Literal('text'), text: Type.String() }),
});

export const AgentReply = ReplyObject({
  id: PlatformId,
  agent_id: Type.String(),
  conversation_id: PlatformId,
  status: Type.Literal('success'),
  choices: Type.Array(
    ReplyObject({ index: Type.Literal(0), finish_reason: AgentFinishReason, messages: Type.Array(TextMessage) }),
  ),
  usage: AgentUsage,
});
export type AgentReply = Static<typeof AgentReply>;

/** One `data:` event of an agent stream: a piece of text, or the last, with `finish_reason` and `usage`. */
export const AgentChunk = ReplyObject({
  id: PlatformId,
  agent_id: Type.String(),
  conversation_id: PlatformId,
  choices: Type.Array(
    ReplyObject({
      index: Type.Literal(0),
      messages: Type.Optional(Type.Array(TextMessage)),
      finish_reason: Type.Optional(AgentFinishReason),
    }),
  ),
  usage: Type.Optional(AgentUsage),
});
export type AgentChunk = Static<typeof AgentChunk>;

/** A conversation's artifact: the translation as a file, its PDF, or an image of a page. */
const ArtifactItem = ReplyObject({
  type: StringEnum(['file_url', 'image_url']),
  tag_cn: Type.String(),
  tag_en: Type.String(),
  file_url: Type.Optional(Type.String()),
  image_url: Type.Optional(Type.String()),
});

export const AgentConversationReply = ReplyObject({
  conversation_id: Type.String(),
  agent_id: Type.String(),
  choices: Type.Array(
    ReplyObject({
      index: Type.Literal(0),
      message: Type.Array(ReplyObject({ role: Type.Literal('assistant'), content: Type.Array(ArtifactItem) })),
    }),
  ),
});
export type AgentConversationReply = Static<typeof AgentConversationReply>;
