import type { ImageEngineFactory } from './factory.js';
import { openAIImageFactory } from './openai-compatible/factory.js';

/** The image engines a deployment of an image model code can name: where names meet implementations. */
export const IMAGE_ENGINES: Readonly<Record<string, ImageEngineFactory>> = {
  'openai-compatible': openAIImageFactory,
};
