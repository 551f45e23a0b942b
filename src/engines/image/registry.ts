import { a1111Factory } from './automatic1111/factory.js';
import { comfyFactory } from './comfyui/factory.js';
import type { ImageEngineFactory } from './factory.js';
import { openAIImageFactory } from './openai-compatible/factory.js';

/** The image engines a deployment of an image model code can name: where names meet implementations. */
export const IMAGE_ENGINES: Readonly<Record<string, ImageEngineFactory>> = {
  'openai-compatible': openAIImageFactory,
  comfyui: comfyFactory,
  automatic1111: a1111Factory,
};
