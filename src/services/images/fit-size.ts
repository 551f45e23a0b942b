import sharp, { type Metadata } from 'sharp';
import type { GeneratedImage, ImageSize } from '../../engines/image/types.js';
import { upstreamFailure } from '../../errors/errors.js';

/**
 * The image at exactly the requested size. An engine with fixed native sizes (SD 1.5 at 512, SDXL
 * buckets) makes another size; the image is then scaled to cover the requested box and centre
 * cropped, so proportions never stretch. The format stays the engine's.
 */
export async function fitToSize(image: GeneratedImage, size: ImageSize): Promise<GeneratedImage> {
  let meta: Metadata;
  try {
    meta = await sharp(image.bytes).metadata();
  } catch (err) {
    throw upstreamFailure('Upstream image engine failure: its image cannot be decoded', { cause: err });
  }
  if (meta.width === size.width && meta.height === size.height) return image;
  const resized = sharp(image.bytes).resize(size.width, size.height, { fit: 'cover', position: 'centre' });
  const format =
    image.mime === 'image/jpeg'
      ? resized.jpeg({ quality: 92 })
      : image.mime === 'image/webp'
        ? resized.webp()
        : resized.png();
  try {
    const bytes = await format.toBuffer();
    return {
      bytes,
      mime: image.mime === 'image/jpeg' || image.mime === 'image/webp' ? image.mime : 'image/png',
      metadata: { ...image.metadata, engine_size: `${meta.width}x${meta.height}` },
    };
  } catch (err) {
    throw upstreamFailure('Upstream image engine failure: its image cannot be resized', { cause: err });
  }
}
