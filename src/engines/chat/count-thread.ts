import { type ResourceLimits, Worker } from 'node:worker_threads';
import { overloaded } from '../../errors/errors.js';
import type { CancelSignal } from '../../util/cancel-signal.js';

export interface CountThreadOptions {
  /**
   * The thread's code, CommonJS text (it runs the same from the sources and from the build): for
   * each message `{ id, job }` it posts `{ id, result }` or `{ id, error }`.
   */
  code: string;
  workerData: unknown;
  /** Jobs that may wait while one runs; one more is refused with 1305. */
  maxWaiting: number;
  /** What the thread does, for messages: "the tokenizer of model.gguf". */
  name: string;
  resourceLimits?: ResourceLimits;
}

interface Entry<Job, Result> {
  readonly id: number;
  readonly job: Job;
  readonly signal: CancelSignal | undefined;
  resolve(result: Result): void;
  reject(reason: unknown): void;
  onAbort(): void;
}

interface Reply<Result> {
  id: number;
  result?: Result;
  error?: string;
}

/** Seconds a refused job is told to wait: one long job's time, about. */
const RETRY_AFTER_SECONDS = 2;

/**
 * Synchronous work (tokenizing a long prompt) on a thread of its own, one job at a time, with a
 * bounded line of jobs waiting: the event loop stays free, and memory and CPU held by waiting jobs
 * are bounded. A job whose client leaves leaves the line; if it is running, the thread is ended
 * (its work stops there) and the next job starts another. The thread starts on first use, is kept
 * while idle without holding the process open, and a thread that fails takes only its running job
 * with it.
 */
export class CountThread<Job, Result> {
  private worker: Worker | undefined;
  private running: Entry<Job, Result> | undefined;
  private readonly waiting: Entry<Job, Result>[] = [];
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: CountThreadOptions) {}

  /** Jobs running (0 or 1) and waiting, for tests and health. */
  get load(): { running: number; waiting: number } {
    return { running: this.running ? 1 : 0, waiting: this.waiting.length };
  }

  run(job: Job, signal?: CancelSignal): Promise<Result> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name} is closed`));
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.running && this.waiting.length >= this.options.maxWaiting) {
      return Promise.reject(
        overloaded(
          `Server overloaded: ${this.options.maxWaiting} long prompts are waiting for ${this.options.name} (tokenizer.thread_queue_size); retry later`,
          { retryAfter: RETRY_AFTER_SECONDS },
        ),
      );
    }
    return new Promise<Result>((resolve, reject) => {
      const entry: Entry<Job, Result> = {
        id: this.nextId++,
        job,
        signal,
        resolve,
        reject,
        onAbort: () => this.abandon(entry),
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.waiting.push(entry);
      this.next();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    const error = new Error(`${this.options.name} was closed`);
    if (this.running) this.settle(this.running, error);
    this.running = undefined;
    for (const entry of this.waiting.splice(0)) this.settle(entry, error);
    await worker?.terminate();
  }

  private next(): void {
    if (this.running || this.closed) return;
    const entry = this.waiting.shift();
    if (!entry) {
      this.worker?.unref();
      return;
    }
    this.running = entry;
    const worker = this.start();
    // Held open while a job runs (a command-line caller waits for it), not while idle.
    worker.ref();
    worker.postMessage({ id: entry.id, job: entry.job });
  }

  /** A client gone: out of the line, or, if running, its thread ended. */
  private abandon(entry: Entry<Job, Result>): void {
    if (this.running === entry) {
      const worker = this.worker;
      this.worker = undefined;
      this.running = undefined;
      void worker?.terminate();
    } else {
      const at = this.waiting.indexOf(entry);
      if (at === -1) return;
      this.waiting.splice(at, 1);
    }
    this.settle(entry, entry.signal?.reason);
    this.next();
  }

  /** Rejects `entry`, no longer listening for its client. */
  private settle(entry: Entry<Job, Result>, reason: unknown): void {
    entry.signal?.removeEventListener('abort', entry.onAbort);
    entry.reject(reason);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const { code, workerData, resourceLimits } = this.options;
    const worker = new Worker(code, { eval: true, workerData, ...(resourceLimits ? { resourceLimits } : {}) });
    worker.on('message', (reply: Reply<Result>) => {
      const entry = this.running;
      if (this.worker !== worker || entry?.id !== reply.id) return;
      this.running = undefined;
      if (reply.error !== undefined || reply.result === undefined) {
        this.settle(entry, new Error(`${this.options.name}: ${reply.error ?? 'no result'}`));
      } else {
        entry.signal?.removeEventListener('abort', entry.onAbort);
        entry.resolve(reply.result);
      }
      this.next();
    });
    // A thread that fails or ends takes its running job with it; the next job starts another.
    worker.on('error', (err) => this.lost(worker, err));
    worker.on('exit', (code) => this.lost(worker, new Error(`${this.options.name} exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private lost(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    const entry = this.running;
    this.running = undefined;
    if (entry) this.settle(entry, new Error(`${this.options.name}: ${err.message}`));
    this.next();
  }
}
