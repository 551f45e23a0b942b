import { type Static, Type } from '@sinclair/typebox';
import { RequestId, UserId } from './common.js';
import { StringEnum } from './schema-helpers.js';

export const ReaderBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 8192, description: 'The page to read (http or https).' }),
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, default: 20, description: 'Seconds.' })),
  no_cache: Type.Optional(Type.Boolean({ default: false })),
  return_format: Type.Optional(StringEnum(['markdown', 'text', 'html'], { default: 'markdown' })),
  retain_images: Type.Optional(Type.Boolean({ default: true })),
  no_gfm: Type.Optional(Type.Boolean({ default: false })),
  keep_img_data_url: Type.Optional(Type.Boolean({ default: false })),
  with_images_summary: Type.Optional(Type.Boolean({ default: false })),
  with_links_summary: Type.Optional(Type.Boolean({ default: false })),
  request_id: Type.Optional(RequestId),
  user_id: Type.Optional(UserId),
});
export type ReaderBody = Static<typeof ReaderBody>;
