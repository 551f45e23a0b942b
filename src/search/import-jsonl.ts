import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { prepareDocument } from './text/document.js';
import { DEFAULT_COLLECTION, type SearchDocument, type SearchIndex } from './types.js';

export interface ImportOptions {
  /** Overrides a line's own `collection`; default: the line's, else `web`. */
  collection?: string;
  /** Documents per upsert (one transaction each). */
  batchSize?: number;
}

export interface ImportProgress {
  lines: number;
  imported: number;
  failed: number;
}

export interface ImportResult extends ImportProgress {
  /** Per-line errors, 1-based line numbers; the first MAX_REPORTED_ERRORS only. */
  errors: { line: number; message: string }[];
}

const MAX_REPORTED_ERRORS = 1000;

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

/**
 * Streams a JSONL file of `{url, title, content, published, site}` lines into the index in batched
 * transactions. A bad line is reported and skipped; it never aborts the import.
 */
export async function importJsonl(
  index: SearchIndex,
  /** A file's path, or the lines themselves (an upload). */
  source: string | NodeJS.ReadableStream,
  options: ImportOptions = {},
  onProgress?: (p: ImportProgress) => void,
): Promise<ImportResult> {
  const batchSize = Math.max(1, options.batchSize ?? 500);
  const result: ImportResult = { lines: 0, imported: 0, failed: 0, errors: [] };
  const fail = (line: number, err: unknown) => {
    result.failed++;
    if (result.errors.length < MAX_REPORTED_ERRORS) {
      result.errors.push({ line, message: err instanceof Error ? err.message : String(err) });
    }
  };
  let batch: { line: number; doc: SearchDocument }[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const current = batch;
    batch = [];
    try {
      await index.upsert(current.map((b) => b.doc));
      result.imported += current.length;
    } catch {
      // The batch was rolled back: retry one by one so that only the offending lines fail.
      for (const b of current) {
        try {
          await index.upsert([b.doc]);
          result.imported++;
        } catch (err) {
          fail(b.line, err);
        }
      }
    }
    onProgress?.({ lines: result.lines, imported: result.imported, failed: result.failed });
  };
  const input = typeof source === 'string' ? createReadStream(source, 'utf8') : source;
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  for await (const raw of lines) {
    result.lines++;
    const text = result.lines === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (text.trim() === '') continue;
    try {
      batch.push({ line: result.lines, doc: parseLine(text, options.collection) });
    } catch (err) {
      fail(result.lines, err);
    }
    if (batch.length >= batchSize) await flush();
  }
  await flush();
  return result;
}
