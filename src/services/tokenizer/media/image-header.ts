/**
 * Image format and dimensions from the bytes themselves (magic numbers, never the extension): PNG's
 * IHDR chunk and JPEG's SOF0/1/2 frame headers. Anything else is refused by the caller.
 */

export type ImageFormat = 'png' | 'jpeg';

export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
}

/** Why bytes are not a usable image; the message is shown to the client. */
export class ImageFormatError extends Error {
  override name = 'ImageFormatError';
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A name for formats that are recognised but refused, so the message can say what was sent. */
export function sniffOtherFormat(bytes: Buffer): string | undefined {
  const ascii = bytes.subarray(0, 16).toString('latin1');
  if (ascii.startsWith('GIF87a') || ascii.startsWith('GIF89a')) return 'GIF';
  if (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') return 'WebP';
  if (ascii.startsWith('BM')) return 'BMP';
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return 'TIFF';
  if (ascii.slice(4, 12) === 'ftypavif' || ascii.slice(4, 12) === 'ftypheic') return 'AVIF/HEIF';
  const text = bytes.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) return 'SVG';
  return undefined;
}

export function readImageInfo(bytes: Buffer): ImageInfo {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_MAGIC)) return readPng(bytes);
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return readJpeg(bytes);
  const other = sniffOtherFormat(bytes);
  throw new ImageFormatError(other ? `${other} images are not accepted` : 'the data is not a JPEG or PNG image');
}

function checked(format: ImageFormat, width: number, height: number): ImageInfo {
  if (width <= 0 || height <= 0) throw new ImageFormatError(`the ${format.toUpperCase()} header gives a size of 0`);
  return { format, width, height };
}

function readPng(bytes: Buffer): ImageInfo {
  // Signature (8), then the first chunk: length (4), type "IHDR" (4), width (4), height (4).
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') {
    throw new ImageFormatError('the PNG is truncated or lacks its IHDR header');
  }
  return checked('png', bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

const SOF_READ = new Set([0xc0, 0xc1, 0xc2]);
/** Other start-of-frame markers: lossless, hierarchical and arithmetic-coded JPEG. */
const SOF_OTHER = new Set([0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(bytes: Buffer): ImageInfo {
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) throw new ImageFormatError(`the JPEG has no marker at byte ${at}`);
    while (bytes[at] === 0xff) at++; // fill bytes
    const marker = bytes[at];
    at++;
    if (marker === undefined) break;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or scan data before any frame header
    if (at + 2 > bytes.length) break;
    const length = bytes.readUInt16BE(at);
    if (length < 2) throw new ImageFormatError('the JPEG has a malformed segment');
    if (SOF_READ.has(marker)) {
      // Length (2), precision (1), height (2), width (2).
      if (at + 7 > bytes.length) break;
      return checked('jpeg', bytes.readUInt16BE(at + 5), bytes.readUInt16BE(at + 3));
    }
    if (SOF_OTHER.has(marker)) {
      throw new ImageFormatError(
        `the JPEG uses coding process SOF${marker - 0xc0}; only baseline, extended and progressive JPEG are accepted`,
      );
    }
    at += length;
  }
  throw new ImageFormatError('the JPEG is truncated or has no frame header');
}
