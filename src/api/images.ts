import { type Static, Type } from '@sinclair/typebox';
import { IMAGE_MODEL_CODES } from '../models/catalogue.js';
import { UserId } from './common.js';
import { StringEnum } from './schema-helpers.js';

const Size = Type.String({
  pattern: '^[0-9]+x[0-9]+$',
  description:
    '`<width>x<height>`; gen-image: each side 1024-2048 px, divisible by 32, at most 2^22 pixels (default 1280x1280).',
});
const Prompt = Type.String({ minLength: 1, description: 'Text description of the image.' });

export const ImageGenerationBody = Type.Object({
  model: StringEnum(IMAGE_MODEL_CODES),
  prompt: Prompt,
  quality: Type.Optional(StringEnum(['hd', 'standard'], { description: 'gen-image default `hd`.' })),
  size: Type.Optional(Size),
  user_id: Type.Optional(UserId),
});
export type ImageGenerationBody = Static<typeof ImageGenerationBody>;

export const AsyncImageGenerationBody = Type.Object({
  model: StringEnum(IMAGE_MODEL_CODES),
  prompt: Prompt,
  quality: Type.Optional(StringEnum(['hd'], { default: 'hd' })),
  size: Type.Optional(Size),
  user_id: Type.Optional(UserId),
});
export type AsyncImageGenerationBody = Static<typeof AsyncImageGenerationBody>;

export const AsyncResultParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 128 }) });
