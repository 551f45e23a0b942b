/**
 * Worker-thread side of extract-pool.ts: reads one page at a time (read-page.ts) off the main
 * thread, and serializes the result as the reply will carry it (api/json-writer.ts), handing the bytes
 * over without a copy. The pool ends a job that runs past its deadline, or whose client left, by
 * terminating this thread; a page that needs more memory than the thread's cap ends it too (the
 * pool starts another).
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import type { TSchema } from '@sinclair/typebox';
import { jsonWriter } from '../../api/json-writer.js';
import type { ReaderResult } from '../../api/reader-reply.js';
import { installBufferMeter } from './pdf-buffers.js';
import { type PageJob, type PageReading, readPage } from './read-page.js';

/** What the pool starts a thread with: the reply's `reader_result` schema (api/reader-reply.ts). */
export interface ExtractWorkerData {
  resultSchema: TSchema;
}

export interface WorkerJob {
  id: number;
  job: PageJob;
}

/**
 * A page read in a thread: on success, its result as the reply's JSON bytes (UTF-8) only. The main
 * thread sends them as they are; copying the result object over as well would have it rebuild the
 * whole text (megabytes for a long PDF) on the event loop for nothing.
 */
export type ThreadReading =
  | (Omit<Extract<PageReading, { ok: true }>, 'result'> & { json: Uint8Array })
  | Extract<PageReading, { ok: false }>;

export type WorkerReply =
  | { id: number; reading: ThreadReading }
  | { id: number; crashed: string }
  /** Sent once the thread's modules are loaded: a page's time cap runs from then. */
  | { ready: true };

const resultJson = jsonWriter<ReaderResult>((workerData as ExtractWorkerData).resultSchema);
const encoder = new TextEncoder();

const port = parentPort;
if (!port) throw new Error('extract-worker.ts runs in a worker thread');
// pdf.js allocates through this thread's typed-array constructors: count what a PDF takes.
installBufferMeter();

function reply(to: MessagePort, id: number, reading: PageReading): void {
  if (!reading.ok) {
    to.postMessage({ id, reading } satisfies WorkerReply);
    return;
  }
  const { result, ...rest } = reading;
  const json = encoder.encode(resultJson(result));
  const { buffer } = json;
  const owned = buffer instanceof ArrayBuffer && json.byteOffset === 0 && json.byteLength === buffer.byteLength;
  to.postMessage({ id, reading: { ...rest, json } } satisfies WorkerReply, owned ? [buffer] : []);
}

port.postMessage({ ready: true } satisfies WorkerReply);

port.on('message', (message: WorkerJob) => {
  readPage(message.job)
    .then((reading) => reply(port, message.id, reading))
    .catch((error: unknown) =>
      port.postMessage({
        id: message.id,
        crashed: error instanceof Error ? error.message : String(error),
      } satisfies WorkerReply),
    );
});
