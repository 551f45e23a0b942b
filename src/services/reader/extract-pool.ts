import { type ResourceLimits, Worker } from 'node:worker_threads';
import type { Deadline } from '../../net/deadline.js';
import type { ThreadReading, WorkerJob, WorkerReply } from './extract-worker.js';
import type { PageJob } from './read-page.js';

/**
 * A pool of worker threads (extract-worker.ts) that read pages off the main thread, so that a 10 MB
 * page or a 500-page PDF holds up no other request. Threads start on demand up to `size` and stay
 * (unreferenced, they keep no process alive). Each job runs under its read's deadline: when the
 * deadline passes, or the client leaves, the thread is terminated (synchronous parsing cannot be
 * interrupted any other way) and a new one takes its place. A thread's heap is capped at `memoryMb`;
 * a page that needs more ends the thread, and only that page fails.
 */
export interface ExtractPoolOptions {
  /** Threads at most. */
  size: number;
  /** Old-generation heap of each thread, MB. */
  memoryMb: number;
}

export interface ExtractPoolStats {
  threads: number;
  busy: number;
  waiting: number;
  /** Threads ended mid-job (deadline, client gone, memory cap, crash). */
  recycled: number;
}

export interface ExtractPool {
  /**
   * Reads a page in a thread. A job past its deadline or over the memory cap resolves as a failed
   * reading with the reason; a client that leaves rejects it with the signal's reason.
   * `transfer`: the caller hands over the body's memory (no copy; its Buffer is unusable after).
   */
  read(job: PageJob, deadline: Deadline, options?: { transfer?: boolean }): Promise<ThreadReading>;
  stats(): ExtractPoolStats;
  close(): Promise<void>;
}

interface Task {
  id: number;
  job: PageJob;
  transfer: ArrayBuffer[];
  deadline: Deadline;
  slot?: Slot;
  settle(outcome: { reading: ThreadReading } | { error: unknown }): void;
}

interface Slot {
  worker: Worker;
  task?: Task;
}

export function createExtractPool(options: ExtractPoolOptions): ExtractPool {
  const slots = new Set<Slot>();
  const idle: Slot[] = [];
  const queue: Task[] = [];
  let nextId = 0;
  let recycled = 0;
  let closed = false;
  const limits: ResourceLimits = { maxOldGenerationSizeMb: options.memoryMb };
  const overMemory = `the page needs more than ${options.memoryMb} MB of memory to extract (reader.worker_memory_mb)`;

  function spawn(): Slot {
    const slot: Slot = { worker: startWorker(limits) };
    slots.add(slot);
    slot.worker.on('message', (reply: WorkerReply) => finish(slot, reply));
    slot.worker.on('error', (error: Error & { code?: string }) =>
      end(slot, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? overMemory : `the extraction failed (${error.message})`),
    );
    slot.worker.on('exit', (code) => end(slot, `the extraction thread exited with code ${code}`));
    slot.worker.unref();
    return slot;
  }

  /** A job's reply: the thread is free again. */
  function finish(slot: Slot, reply: WorkerReply): void {
    const task = slot.task;
    if (!task || task.id !== reply.id) return;
    slot.task = undefined;
    slot.worker.unref();
    idle.push(slot);
    task.settle(
      'reading' in reply
        ? { reading: reply.reading }
        : { reading: { ok: false, reason: `the extraction failed (${reply.crashed})` } },
    );
    pump();
  }

  /** The thread is gone (out of memory, crashed, or terminated by us): its job, if any, fails. */
  function end(slot: Slot, reason: string): void {
    if (!slots.delete(slot)) return;
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    const task = slot.task;
    slot.task = undefined;
    if (task) {
      recycled++;
      task.settle({ reading: { ok: false, reason } });
    }
    pump();
  }

  /** Ends a running job's thread now; the next job gets a new one. */
  function recycle(slot: Slot): void {
    slots.delete(slot);
    slot.task = undefined;
    recycled++;
    void slot.worker.terminate();
    pump();
  }

  function pump(): void {
    while (queue.length > 0 && !closed) {
      const slot = idle.pop() ?? (slots.size < options.size ? spawn() : undefined);
      if (!slot) return;
      const task = queue.shift() as Task;
      slot.task = task;
      task.slot = slot;
      slot.worker.ref();
      slot.worker.postMessage({ id: task.id, job: task.job } satisfies WorkerJob, task.transfer);
    }
  }

  /** The deadline passed or the client left: the job leaves the queue, or its thread ends. */
  function cancel(task: Task): void {
    const at = queue.indexOf(task);
    if (at >= 0) queue.splice(at, 1);
    else if (task.slot && task.slot.task === task) recycle(task.slot);
    const { deadline } = task;
    if (deadline.timedOut())
      task.settle({
        reading: { ok: false, reason: `timed out after ${deadline.seconds} s while extracting the page` },
      });
    else task.settle({ error: deadline.signal.reason });
  }

  return {
    read(job, deadline, readOptions = {}) {
      if (closed) return Promise.reject(new Error('the reader is closed'));
      const { signal } = deadline;
      return new Promise<ThreadReading>((resolve, reject) => {
        let done = false;
        const task: Task = {
          id: ++nextId,
          job,
          transfer: readOptions.transfer ? transferable(job.body) : [],
          deadline,
          settle(outcome) {
            if (done) return;
            done = true;
            signal.removeEventListener('abort', onAbort);
            if ('reading' in outcome) resolve(outcome.reading);
            else reject(outcome.error);
          },
        };
        const onAbort = () => cancel(task);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(task);
        pump();
      });
    },
    stats: () => ({
      threads: slots.size,
      busy: [...slots].filter((slot) => slot.task).length,
      waiting: queue.length,
      recycled,
    }),
    async close() {
      closed = true;
      const error = new Error('the reader is closed');
      for (const task of queue.splice(0)) task.settle({ error });
      const workers = [...slots].map((slot) => slot.worker);
      for (const slot of slots) slot.task?.settle({ error });
      slots.clear();
      idle.length = 0;
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** The body's memory, when the Buffer owns all of it (a pooled small Buffer shares its memory). */
function transferable(body: Uint8Array | string): ArrayBuffer[] {
  if (typeof body === 'string') return [];
  const { buffer } = body;
  if (!(buffer instanceof ArrayBuffer) || body.byteOffset !== 0 || body.byteLength !== buffer.byteLength) return [];
  return [buffer];
}

/**
 * Under tsx (tests, benchmarks) the worker is TypeScript source too: it registers tsx's loader first
 * (Node 20 does not apply `--import tsx` to a worker's own entry module).
 */
function startWorker(resourceLimits: ResourceLimits): Worker {
  const entry = new URL('./extract-worker.js', import.meta.url);
  if (!import.meta.url.endsWith('.ts')) return new Worker(entry, { resourceLimits });
  const source = JSON.stringify(entry.href.replace(/\.js$/, '.ts'));
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); });`, {
    eval: true,
    resourceLimits,
  });
}
