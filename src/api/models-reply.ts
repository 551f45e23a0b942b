import { type Static, Type } from '@sinclair/typebox';
import { ReplyObject, UnixSeconds } from './reply-helpers.js';
import { StringEnum } from './schema-helpers.js';

/** One model in the OpenAI list shape, with where it stands on this server. */
export const ModelEntry = ReplyObject({
  id: Type.String(),
  object: Type.Literal('model'),
  created: UnixSeconds,
  owned_by: Type.String(),
  type: StringEnum(['chat', 'image']),
  state: StringEnum(['ready', 'downloading', 'failed', 'not_loaded']),
  progress: Type.Optional(Type.Number({ description: 'Share downloaded, 0-1, while `downloading`' })),
  error: Type.Optional(Type.String({ description: 'Why, when `failed`' })),
});

export const ModelsReply = ReplyObject({
  object: Type.Literal('list'),
  data: Type.Array(ModelEntry),
});
export type ModelsReply = Static<typeof ModelsReply>;
