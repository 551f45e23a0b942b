import { type Static, Type } from '@sinclair/typebox';
import { PlatformId, ReplyObject, UnixSeconds } from './reply-helpers.js';

export const TokenizerReply = ReplyObject({
  id: PlatformId,
  created: UnixSeconds,
  request_id: Type.String(),
  usage: ReplyObject({
    prompt_tokens: Type.Integer(),
    image_tokens: Type.Integer(),
    video_tokens: Type.Integer(),
    total_tokens: Type.Integer(),
  }),
});
export type TokenizerReply = Static<typeof TokenizerReply>;
