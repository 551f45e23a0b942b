import type { Agent } from 'undici';
import { invalidField } from '../../../errors/errors.js';
import { isHttpUrl, loadMedia } from './media-source.js';
import { MAX_FILE_BYTES, type MediaOptions } from './options.js';

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

function extensionOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return '';
  }
  const name = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Checks a `file_url` item's format: by the URL's extension, else by the content type (a `data:`
 * URL's, or the server's for an http(s) URL, fetched through the guard). Files count 0 media tokens.
 */
export async function checkFile(url: string, field: string, agent: () => Agent, options: MediaOptions): Promise<void> {
  const value = url.trim();
  const extension = isHttpUrl(value) ? extensionOf(value) : '';
  if (EXTENSIONS.has(extension)) return;
  const { contentType } = await loadMedia(
    value,
    { field, maxBytes: MAX_FILE_BYTES, bareBase64: false, timeoutSeconds: options.fetchTimeoutSeconds ?? 20 },
    agent,
    options,
  );
  if (CONTENT_TYPES.has(contentType)) return;
  const seen = [extension && `extension .${extension}`, contentType && `content type ${contentType}`].filter(Boolean);
  throw invalidField(field, `the file format is not accepted (${seen.join(', ') || 'unknown'}); ${FORMATS}`);
}
