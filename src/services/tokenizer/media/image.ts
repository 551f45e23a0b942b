import type { Agent } from 'undici';
import { invalidField } from '../../../errors/errors.js';
import { ImageFormatError, type ImageInfo, readImageInfo } from './image-header.js';
import { loadMedia } from './media-source.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, type MediaOptions } from './options.js';

const FORMATS = 'allowed formats: jpg, jpeg, png';

/** The dimensions of one `image_url` item, checked against the spec's per-image limits. */
export async function measureImage(
  url: string,
  field: string,
  agent: () => Agent,
  options: MediaOptions,
): Promise<ImageInfo> {
  const { bytes } = await loadMedia(
    url,
    { field, maxBytes: MAX_IMAGE_BYTES, bareBase64: true, timeoutSeconds: options.fetchTimeoutSeconds ?? 20 },
    agent,
    options,
  );
  let info: ImageInfo;
  try {
    info = readImageInfo(bytes);
  } catch (error) {
    if (error instanceof ImageFormatError) throw invalidField(field, `${error.message}; ${FORMATS}`);
    throw error;
  }
  if (info.width > MAX_IMAGE_SIDE || info.height > MAX_IMAGE_SIDE) {
    throw invalidField(
      field,
      `the image is ${info.width}x${info.height} pixels; at most ${MAX_IMAGE_SIDE}x${MAX_IMAGE_SIDE} are accepted`,
    );
  }
  return info;
}
