import { invalidField } from '../../../errors/errors.js';
import type { MediaBudget } from '../../media/budget.js';
import { isHttpUrl, loadMedia, type MediaFetch } from '../../media/media-source.js';
import type { MediaOptions } from './options.js';

const FORMATS = 'allowed formats: pdf, txt, word (doc, docx), jsonl, xlsx, pptx';

const EXTENSIONS = new Set(['pdf', 'txt', 'doc', 'docx', 'jsonl', 'xlsx', 'pptx']);

const CONTENT_TYPES = new Set([
  'application/pdf',
  'text/plain',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/jsonl',
  'application/x-jsonlines',
  'application/x-ndjson',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
]);

/** Content types that say nothing of the format: the first bytes decide. */
const GENERIC_TYPES = new Set([
  '',
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/download',
  'application/force-download',
  'application/x-download',
]);

/** The first bytes read of a file whose URL has no known extension: enough for every signature below. */
export const FILE_HEAD_BYTES = 1024;

/** The first entry of an Office Open XML package (docx, xlsx, pptx) is one of these parts. */
const OOXML_PARTS = /^(\[Content_Types\]\.xml|_rels\/|docProps\/|word\/|xl\/|ppt\/)/;

function extensionOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  let name = path.slice(path.lastIndexOf('/') + 1);
  try {
    name = decodeURIComponent(name);
  } catch {
    // A broken %-escape: the raw name still shows its extension, if any.
  }
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** An accepted format told by the first bytes (magic numbers), or undefined. */
export function sniffFileFormat(head: Buffer): string | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (head.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return 'doc';
  if (head.length >= 30 && head.readUInt32BE(0) === 0x504b0304) {
    const nameLength = head.readUInt16LE(26);
    const name = head.toString('latin1', 30, Math.min(head.length, 30 + nameLength));
    return OOXML_PARTS.test(name) ? 'office' : undefined;
  }
  if (head.length > 0 && !head.includes(0) && isUtf8Prefix(head)) return 'txt';
  return undefined;
}

/** Valid UTF-8, except perhaps a character cut at the end of the head. */
function isUtf8Prefix(head: Buffer): boolean {
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head);
  const bad = decoded.indexOf('\ufffd');
  return bad < 0 || bad >= decoded.length - 1;
}

/**
 * Checks a `file_url` item's format: by the URL's extension (nothing fetched), else by the declared
 * content type (a `data:` URL's, or the server's) and the first bytes: an http(s) URL is read only
 * as far as its first `FILE_HEAD_BYTES`, never whole. Files count 0 media tokens.
 */
export async function checkFile(
  url: string,
  field: string,
  via: MediaFetch,
  options: MediaOptions,
  budget: MediaBudget,
): Promise<void> {
  const value = url.trim();
  const extension = isHttpUrl(value) ? extensionOf(value) : '';
  if (EXTENSIONS.has(extension)) return;
  const { contentType, bytes } = await loadMedia(
    value,
    {
      field,
      // Files have no size rule: only their first bytes are read.
      maxBytes: Number.MAX_SAFE_INTEGER,
      bareBase64: false,
      timeoutSeconds: options.fetchTimeoutSeconds ?? 20,
      enough: (head) => head.length >= FILE_HEAD_BYTES,
      rangeBytes: FILE_HEAD_BYTES,
    },
    via,
    budget,
  );
  if (CONTENT_TYPES.has(contentType)) return;
  if (GENERIC_TYPES.has(contentType) && sniffFileFormat(bytes.subarray(0, FILE_HEAD_BYTES))) return;
  const seen = [extension && `extension .${extension}`, contentType && `content type ${contentType}`].filter(Boolean);
  throw invalidField(field, `the file format is not accepted (${seen.join(', ') || 'unknown'}); ${FORMATS}`);
}
