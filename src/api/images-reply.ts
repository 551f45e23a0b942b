import { type Static, Type } from '@sinclair/typebox';
import { PlatformId, ReplyObject, UnixSeconds } from './reply-helpers.js';
import { StringEnum } from './schema-helpers.js';

const ImageUrl = ReplyObject({
  url: Type.String({ description: 'On this server (`/files/...`), unguessable, valid 30 days by default' }),
});

/** What the safety check saw, per stage. */
export const ContentFilter = Type.Array(
  ReplyObject({ role: Type.String({ description: 'Stage checked' }), level: Type.Integer({ description: '0-3' }) }),
);

export const ImageReply = ReplyObject({
  created: UnixSeconds,
  data: Type.Array(ImageUrl),
  content_filter: ContentFilter,
});
export type ImageReply = Static<typeof ImageReply>;

const TaskStatus = StringEnum(['PROCESSING', 'SUCCESS', 'FAIL']);

/** The handle `POST /async/images/generations` answers. */
export const TaskHandleReply = ReplyObject({
  model: Type.String(),
  id: PlatformId,
  request_id: Type.String(),
  task_status: TaskStatus,
});
export type TaskHandleReply = Static<typeof TaskHandleReply>;

/** `GET /async-result/{id}` (docs/wire.md, "Async tasks"): the image once SUCCESS, the error once FAIL. */
export const TaskResultReply = ReplyObject({
  id: PlatformId,
  model: Type.String(),
  request_id: Type.String(),
  task_status: TaskStatus,
  image_result: Type.Optional(Type.Array(ImageUrl)),
  content_filter: Type.Optional(ContentFilter),
  error: Type.Optional(ReplyObject({ code: Type.String(), message: Type.String() })),
});
export type TaskResultReply = Static<typeof TaskResultReply>;
