import type { ImageSize } from '../../engines/image/types.js';
import type { FileNeed } from '../../files/types.js';

/** Room for a PNG's signature, header, chunk framing and the deflate block headers of its data. */
const CONTAINER_BYTES = 64 * 1024;

/**
 * The room a generated image of `size` is held in the file store before it is made: the bytes of
 * the image uncompressed (8-bit RGBA, PNG's filter byte a row) plus its container, more than any
 * PNG, JPEG or WebP of that size the engines make. An image larger still (16-bit, a large
 * metadata block) is checked against the caps again when it is stored.
 */
export function imageRoom(size: ImageSize): FileNeed {
  return { files: 1, bytes: size.width * size.height * 4 + size.height + CONTAINER_BYTES };
}
