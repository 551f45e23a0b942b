/**
 * Worker-thread side of extract-pool.ts: reads one page at a time (read-page.ts) off the main
 * thread. The pool ends a job that runs past its deadline, or whose client left, by terminating this
 * thread; a page that needs more memory than the thread's cap ends it too (the pool starts another).
 */
import { parentPort } from 'node:worker_threads';
import { type PageJob, type PageReading, readPage } from './read-page.js';

export interface WorkerJob {
  id: number;
  job: PageJob;
}

export type WorkerReply = { id: number; reading: PageReading } | { id: number; crashed: string };

const port = parentPort;
if (!port) throw new Error('extract-worker.ts runs in a worker thread');

port.on('message', (message: WorkerJob) => {
  readPage(message.job).then(
    (reading) => port.postMessage({ id: message.id, reading } satisfies WorkerReply),
    (error: unknown) =>
      port.postMessage({
        id: message.id,
        crashed: error instanceof Error ? error.message : String(error),
      } satisfies WorkerReply),
  );
});
