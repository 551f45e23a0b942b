import { invalidField } from '../../../errors/errors.js';
import type { MediaBudget } from '../../media/budget.js';
import { loadMedia, type MediaFetch } from '../../media/media-source.js';
import { ImageFormatError, type ImageInfo, readImageInfo } from './image-header.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_SIDE, type MediaOptions } from './options.js';

const FORMATS = 'allowed formats: jpg, jpeg, png';

/** The header tells the size, or tells that this is no PNG or JPEG: either way the rest is not needed. */
function headerSettled(head: Buffer): boolean {
  try {
    readImageInfo(head);
    return true;
  } catch {
    const png = head[0] === 0x89 && head[1] === 0x50;
    const jpeg = head[0] === 0xff && head[1] === 0xd8;
    return head.length >= 16 && !png && !jpeg;
  }
}

/**
 * The dimensions of one `image_url` item, checked against the spec's per-image limits. A served
 * image whose size the server declares (within the limit) is read only as far as its header.
 */
export async function measureImage(
  url: string,
  field: string,
  via: MediaFetch,
  options: MediaOptions,
  budget: MediaBudget,
): Promise<ImageInfo> {
  const { bytes } = await loadMedia(
    url,
    {
      field,
      maxBytes: MAX_IMAGE_BYTES,
      bareBase64: true,
      timeoutSeconds: options.fetchTimeoutSeconds ?? 20,
      // Without a declared length the size rule needs the whole image (at most 5 MB).
      enough: (head, declared) => declared !== undefined && headerSettled(head),
    },
    via,
    budget,
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
