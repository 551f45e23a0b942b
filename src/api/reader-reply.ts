import { type Static, Type } from '@sinclair/typebox';
import { PlatformId, ReplyObject, UnixSeconds } from './reply-helpers.js';

const StringMap = (description: string) => Type.Record(Type.String(), Type.String(), { description });

export const ReaderResult = ReplyObject({
  content: Type.String(),
  description: Type.String(),
  title: Type.String(),
  url: Type.String(),
  external: ReplyObject({
    stylesheet: Type.Record(Type.String(), ReplyObject({ type: Type.String() })),
  }),
  metadata: StringMap("The page's `<meta>` name → content"),
  publishedTime: Type.Optional(Type.String()),
  images: Type.Optional(StringMap('Alt text or title → image URL (`with_images_summary`)')),
  links: Type.Optional(StringMap('Link text → URL (`with_links_summary`)')),
});
/** A page as the reader made it: the reply's `reader_result`, and the reader's result everywhere. */
export type ReaderResult = Static<typeof ReaderResult>;

export const ReaderReply = ReplyObject({
  id: PlatformId,
  created: UnixSeconds,
  request_id: Type.String(),
  model: Type.Literal('reader'),
  reader_result: ReaderResult,
});
export type ReaderReply = Static<typeof ReaderReply>;
