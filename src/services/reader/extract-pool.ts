import { type ResourceLimits, Worker } from 'node:worker_threads';
import { ReaderResult } from '../../api/reader-reply.js';
import { overloaded } from '../../errors/errors.js';
import type { Deadline } from '../../net/deadline.js';
import { FairGate } from '../../util/fair-gate.js';
import { groupOf } from '../../util/fair-queue.js';
import type { ExtractWorkerData, ThreadReading, WorkerJob, WorkerReply } from './extract-worker.js';
import type { PageJob } from './read-page.js';

/**
 * A pool of worker threads (extract-worker.ts) that read pages off the main thread, so that a 10 MB
 * page or a 500-page PDF holds up no other request. Threads start on demand up to `size` and stay
 * (unreferenced, they keep no process alive). Each job runs under its read's deadline: when the
 * deadline passes, or the client leaves, the thread is terminated (synchronous parsing cannot be
 * interrupted any other way) and a new one takes its place. A thread's heap is capped at `memoryMb`;
 * a page that needs more ends the thread, and only that page fails. A page holds a thread for at most
 * `maxSeconds`, whatever its read's timeout. Pages waiting for a thread are served lane by lane (a
 * lane: a key, `account/key` for a key of an account), and one account (or a key without one) holds
 * at most all threads but one, however many of its keys read.
 */
export interface ExtractPoolOptions {
  /** Threads at most. */
  size: number;
  /** Old-generation heap of each thread, MB. */
  memoryMb: number;
  /** Longest a page may hold a thread, seconds, whatever its read's own timeout. */
  maxSeconds: number;
  /** Pages waiting for a thread, all callers together; past it a read is refused with 1305. */
  queueSize: number;
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
   * `lane`: whose page it is (a key, or `account/key`): pages waiting for a thread are served lane by
   * lane, and the account's keys share one account's threads.
   */
  read(job: PageJob, deadline: Deadline, options?: { transfer?: boolean; lane?: string }): Promise<ThreadReading>;
  stats(): ExtractPoolStats;
  close(): Promise<void>;
}

interface Task {
  id: number;
  job: PageJob;
  transfer: ArrayBuffer[];
  deadline: Deadline;
  lane: string;
  /** Whose share of threads it counts against: the lane's account, or the lane itself without one. */
  share: string;
  /** Counted among its share's pages (in line for a thread or on one); else held back. */
  admitted: boolean;
  settled: boolean;
  slot?: Slot;
  settle(outcome: { reading: ThreadReading } | { error: unknown }): void;
}

interface Slot {
  worker: Worker;
  /** The page the thread works on; undefined while it is idle. */
  task?: Task | undefined;
  /** Ends the task when it has held the thread for the pool's `maxSeconds`. */
  timer?: NodeJS.Timeout | undefined;
  /** The thread has loaded its modules (a new thread's start-up does not count against a page). */
  ready?: boolean;
}

export function createExtractPool(options: ExtractPoolOptions): ExtractPool {
  const slots = new Set<Slot>();
  const idle: Slot[] = [];
  // A place is a thread's turn: pages wait for one lane by lane (a key's burst delays another key's
  // page by one page per waiting key, not by the whole burst), at most `queueSize` of them.
  const fullMessage = `too many pages are waiting to be extracted (reader.extract_queue_size = ${options.queueSize}); retry shortly`;
  const places = new FairGate(options.size, { limit: options.queueSize, fullMessage, retryAfter: 1 });
  // One account (or key without one) holds at most all threads but one, so that another caller's
  // page always finds one: an account's keys count together, as their turns in `places` do.
  const threadShare = Math.max(1, options.size - 1);
  const admitted = new Map<string, number>();
  const held = new Map<string, Task[]>();
  let heldCount = 0;
  let nextId = 0;
  let recycled = 0;
  let closed = false;
  const limits: ResourceLimits = { maxOldGenerationSizeMb: options.memoryMb };
  const overMemory = `the page needs more than ${options.memoryMb} MB of memory to extract (reader.worker_memory_mb)`;
  const overTime = `the page took more than ${options.maxSeconds} s to extract (reader.extract_timeout_seconds)`;

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

  /** The task leaves its thread; the place goes to the next page waiting. */
  function release(slot: Slot): Task | undefined {
    const task = slot.task;
    clearTimeout(slot.timer);
    slot.task = undefined;
    slot.timer = undefined;
    if (task) places.leave();
    return task;
  }

  /** A job's reply: the thread is free again. */
  function finish(slot: Slot, reply: WorkerReply): void {
    if ('ready' in reply) {
      slot.ready = true;
      if (slot.task) startTimer(slot, slot.task);
      return;
    }
    const task = slot.task;
    if (!task || task.id !== reply.id) return;
    release(slot);
    slot.worker.unref();
    idle.push(slot);
    task.settle(
      'reading' in reply
        ? { reading: reply.reading }
        : { reading: { ok: false, reason: `the extraction failed (${reply.crashed})` } },
    );
  }

  /** The thread is gone (out of memory, crashed, or terminated by us): its job, if any, fails. */
  function end(slot: Slot, reason: string): void {
    if (!slots.delete(slot)) return;
    const at = idle.indexOf(slot);
    if (at >= 0) idle.splice(at, 1);
    const task = release(slot);
    if (task) {
      recycled++;
      task.settle({ reading: { ok: false, reason } });
    }
  }

  /** Ends a running job's thread now; the next job gets a new one. */
  function recycle(slot: Slot): void {
    slots.delete(slot);
    release(slot);
    recycled++;
    void slot.worker.terminate();
  }

  /** The task has a place: it runs on an idle thread, or a new one. */
  function run(task: Task): void {
    if (closed) {
      task.settle({ error: new Error('the reader is closed') });
      return;
    }
    const slot = idle.pop() ?? spawn();
    slot.task = task;
    task.slot = slot;
    if (slot.ready) startTimer(slot, task);
    slot.worker.ref();
    slot.worker.postMessage({ id: task.id, job: task.job } satisfies WorkerJob, task.transfer);
  }

  /** In line for a thread, or held back while its share has all the threads it may. */
  function admit(task: Task): void {
    const { lane, share } = task;
    const count = admitted.get(share) ?? 0;
    const full = !places.hasRoom && places.waiting + heldCount >= options.queueSize;
    if (full && !pushOutFor(share)) {
      task.settle({ error: overloaded(fullMessage, { retryAfter: 1 }) });
      return;
    }
    if (count >= threadShare) {
      const line = held.get(share);
      if (line) line.push(task);
      else held.set(share, [task]);
      heldCount++;
      return;
    }
    admitted.set(share, count + 1);
    task.admitted = true;
    const { signal } = task.deadline;
    places.enter(lane, signal).then(
      () => (task.settled ? places.leave() : run(task)),
      (error: unknown) => (signal.aborted ? cancel(task) : task.settle({ error })),
    );
  }

  /**
   * The queue is full: as in the fair queue, a share holding back two pages more than `share` gives
   * up its newest, so that one account filling the queue cannot lock the others out.
   */
  function pushOutFor(share: string): boolean {
    const own = held.get(share)?.length ?? 0;
    let longest: Task[] | undefined;
    for (const line of held.values()) if (!longest || line.length > longest.length) longest = line;
    const victim = longest && longest.length >= own + 2 ? longest.at(-1) : undefined;
    victim?.settle({ error: overloaded(fullMessage, { retryAfter: 1 }) });
    return victim !== undefined;
  }

  /** The task is settled: its share frees up, or it leaves the held pages. */
  function leaveShare(task: Task): void {
    const { share } = task;
    if (!task.admitted) {
      const line = held.get(share);
      const at = line?.indexOf(task) ?? -1;
      if (line && at >= 0) {
        line.splice(at, 1);
        heldCount--;
      }
      if (line?.length === 0) held.delete(share);
      return;
    }
    const count = (admitted.get(share) ?? 1) - 1;
    if (count > 0) admitted.set(share, count);
    else admitted.delete(share);
    const next = held.get(share)?.shift();
    if (held.get(share)?.length === 0) held.delete(share);
    if (next) {
      heldCount--;
      admit(next);
    }
  }

  function startTimer(slot: Slot, task: Task): void {
    slot.timer = setTimeout(() => {
      if (slot.task !== task) return;
      recycle(slot);
      task.settle({ reading: { ok: false, reason: overTime } });
    }, options.maxSeconds * 1000);
  }

  /** The deadline passed or the client left: a running job's thread ends (a waiting one left its lane). */
  function cancel(task: Task): void {
    if (task.slot && task.slot.task === task) recycle(task.slot);
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
      const lane = readOptions.lane ?? '';
      return new Promise<ThreadReading>((resolve, reject) => {
        const task: Task = {
          id: ++nextId,
          job,
          transfer: readOptions.transfer ? transferable(job.body) : [],
          deadline,
          lane,
          share: groupOf(lane),
          admitted: false,
          settled: false,
          settle(outcome) {
            if (task.settled) return;
            task.settled = true;
            signal.removeEventListener('abort', onAbort);
            leaveShare(task);
            if ('reading' in outcome) resolve(outcome.reading);
            else reject(outcome.error);
          },
        };
        const onAbort = () => cancel(task);
        if (signal.aborted) return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        admit(task);
      });
    },
    stats: () => ({
      threads: slots.size,
      busy: [...slots].filter((slot) => slot.task).length,
      waiting: places.waiting + heldCount,
      recycled,
    }),
    async close() {
      closed = true;
      const error = new Error('the reader is closed');
      places.clear(error);
      for (const line of [...held.values()]) for (const task of [...line]) task.settle({ error });
      const workers = [...slots].map((slot) => slot.worker);
      for (const slot of slots) {
        clearTimeout(slot.timer);
        slot.task?.settle({ error });
      }
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
  // The result's schema goes as data (its JSON keys): a thread that imported it would load TypeBox,
  // ~5 MB of heap and half a second of start-up per thread for one object.
  const workerData: ExtractWorkerData = { resultSchema: ReaderResult };
  if (!import.meta.url.endsWith('.ts')) return new Worker(entry, { resourceLimits, workerData });
  const source = JSON.stringify(entry.href.replace(/\.js$/, '.ts'));
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); });`, {
    eval: true,
    resourceLimits,
    workerData,
  });
}
