import { sniffImageType } from '../../engines/image/mime.js';

const MB = 1024 * 1024;

/** The spec's size limits of one media item (docs/tokenizer.md). */
export const MAX_IMAGE_BYTES = 5 * MB;
export const MAX_VIDEO_BYTES = 200 * MB;

export type MediaKind = 'image' | 'video' | 'file';

const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

function sniffVideo(bytes: Buffer): string | undefined {
  if (bytes.length >= 12 && bytes.toString('latin1', 4, 8) === 'ftyp') {
    return bytes.toString('latin1', 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4';
  }
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) {
    return bytes.subarray(0, 64).includes('webm') ? 'video/webm' : 'video/x-matroska';
  }
  return undefined;
}

/**
 * The media type to send a fetched item upstream with: the server's `Content-Type` when it says
 * what kind of item this is, else what the first bytes say. Undefined: the bytes are not the kind
 * of item the field asks for.
 */
export function mediaTypeOf(kind: MediaKind, declared: string, bytes: Buffer): string | undefined {
  const type = declared.split(';')[0]!.trim().toLowerCase();
  if (kind === 'image') return type.startsWith('image/') ? type : sniffImageType(bytes);
  if (kind === 'video') return type.startsWith('video/') ? type : sniffVideo(bytes);
  if (!GENERIC.has(type)) return type;
  return bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : 'application/octet-stream';
}
