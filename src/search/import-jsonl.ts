import { createHash } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { ApiError } from '../errors/api-error.js';
import { readLines } from './jsonl-lines.js';
import { prepareDocument } from './text/document.js';
import { DEFAULT_COLLECTION, type SearchDocument, type SearchIndex } from './types.js';

export interface ImportOptions {
  /** Overrides a line's own `collection`; absent or undefined: the line's, else `web`. */
  collection?: string | undefined;
  /** Documents per upsert (one transaction each). */
  batchSize?: number;
  /**
   * A file where the import notes how far it got after every batch. An import of the same file
   * (same size, time and first bytes) with the same checkpoint goes on from there; a finished
   * import removes it.
   */
  checkpoint?: string;
  /** Longer lines are reported and skipped without being held in memory. Default 16 MiB. */
  maxLineBytes?: number;
}

export interface ImportProgress {
  lines: number;
  imported: number;
  failed: number;
  /** Bytes of the file read so far, and its size: the share done. */
  bytes: number;
  totalBytes: number;
}

export interface ImportResult extends ImportProgress {
  /** Per-line errors of this run, 1-based line numbers; the first MAX_REPORTED_ERRORS only. */
  errors: { line: number; message: string }[];
  /** The line an interrupted import went on after (0: started at the beginning). */
  resumedAfterLine: number;
}

const MAX_REPORTED_ERRORS = 1000;
/** A batch is also flushed at this many bytes of text, whatever its document count. */
const MAX_BATCH_BYTES = 32 << 20;

interface Checkpoint {
  file: { size: number; mtimeMs: number; head: string };
  offset: number;
  lines: number;
  imported: number;
  failed: number;
}

function parseLine(text: string, collection: string | undefined): SearchDocument {
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not a JSON object');
  const o = value as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
  const doc: SearchDocument = {
    url: str('url') ?? '',
    title: str('title') ?? '',
    content: str('content') ?? str('text') ?? '',
    collection: collection ?? str('collection') ?? DEFAULT_COLLECTION,
  };
  const site = str('site');
  const published = str('published');
  if (site) doc.site = site;
  if (published) doc.published = published;
  if (doc.title === '' && doc.content === '') throw new Error('title and content are both empty');
  prepareDocument(doc); // validate now, so a bad line is reported alone instead of failing its batch
  return doc;
}

/** What identifies the file a checkpoint belongs to: size, modification time and a hash of its head. */
async function fileIdentity(path: string): Promise<Checkpoint['file']> {
  const info = await stat(path);
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(65_536, info.size));
    await handle.read(head, 0, head.length, 0);
    return { size: info.size, mtimeMs: info.mtimeMs, head: createHash('sha256').update(head).digest('hex') };
  } finally {
    await handle.close();
  }
}

async function readCheckpoint(path: string | undefined, file: Checkpoint['file']): Promise<Checkpoint | undefined> {
  if (!path) return undefined;
  try {
    const saved = JSON.parse(await readFile(path, 'utf8')) as Checkpoint;
    const same = saved.file.size === file.size && saved.file.mtimeMs === file.mtimeMs && saved.file.head === file.head;
    return same ? saved : undefined;
  } catch {
    return undefined; // none yet, or unreadable: start from the beginning
  }
}

async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  await writeFile(`${path}.tmp`, JSON.stringify(checkpoint), { mode: 0o600 });
  await rename(`${path}.tmp`, path); // a crash leaves the old checkpoint or the new one, never half of one
}

/**
 * Streams a JSONL file of `{url, title, content, published, site}` lines into the index in batched
 * transactions. A bad line is reported and skipped; it never aborts the import. Memory stays
 * bounded by the batch (count and bytes) and the longest line allowed, whatever the file's size.
 * Any other failure (the database, the disk) stops the import with the checkpoint at the last
 * batch written: documents are upserted by url, so redoing part of a batch changes nothing.
 */
export async function importJsonl(
  index: SearchIndex,
  filePath: string,
  options: ImportOptions = {},
  onProgress?: (p: ImportProgress) => void,
): Promise<ImportResult> {
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const file = await fileIdentity(filePath);
  const saved = await readCheckpoint(options.checkpoint, file);
  const result: ImportResult = {
    lines: saved?.lines ?? 0,
    imported: saved?.imported ?? 0,
    failed: saved?.failed ?? 0,
    bytes: saved?.offset ?? 0,
    totalBytes: file.size,
    errors: [],
    resumedAfterLine: saved?.lines ?? 0,
  };
  const fail = (line: number, err: unknown) => {
    result.failed++;
    if (result.errors.length < MAX_REPORTED_ERRORS) {
      result.errors.push({ line, message: err instanceof Error ? err.message : String(err) });
    }
  };
  let batch: { line: number; doc: SearchDocument }[] = [];
  let batchBytes = 0;
  const flush = async (offset: number) => {
    const current = batch;
    batch = [];
    batchBytes = 0;
    try {
      if (current.length > 0) await index.upsert(current.map((b) => b.doc));
      result.imported += current.length;
    } catch {
      // The batch was rolled back: one by one, a document the index refuses fails alone; anything
      // else (the database is down, the disk full) stops the import, to be resumed.
      for (const b of current) {
        try {
          await index.upsert([b.doc]);
          result.imported++;
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          fail(b.line, err);
        }
      }
    }
    result.bytes = offset;
    if (options.checkpoint) {
      const { lines, imported, failed } = result;
      await writeCheckpoint(options.checkpoint, { file, offset, lines, imported, failed });
    }
    onProgress?.({ ...result });
  };
  const maxLineBytes = options.maxLineBytes ?? 16 << 20;
  for await (const line of readLines(filePath, { offset: result.bytes, line: result.lines }, maxLineBytes)) {
    result.lines = line.number;
    const text = line.number === 1 ? line.text?.replace(/^\uFEFF/, '') : line.text;
    if (text === undefined) fail(line.number, new Error(`line longer than ${maxLineBytes} bytes`));
    else if (text.trim() !== '') {
      try {
        batch.push({ line: line.number, doc: parseLine(text, options.collection) });
        batchBytes += text.length;
      } catch (err) {
        fail(line.number, err);
      }
    }
    if (batch.length >= batchSize || batchBytes >= MAX_BATCH_BYTES) await flush(line.end);
  }
  await flush(file.size);
  if (options.checkpoint) await rm(options.checkpoint, { force: true });
  return result;
}
