import { Worker } from 'node:worker_threads';
import type { CancelSignal } from '../../../util/cancel-signal.js';
import { FairGate } from '../../../util/fair-gate.js';
import type { PageSize } from './page-image.js';
import type { RenderJob, RenderResult } from './render-worker.js';

export interface Rendered {
  pdf: Uint8Array;
  pageCount: number;
  /** One PNG a page asked for; empty when a position is past the last page. */
  images: Uint8Array[];
}

/** Whose job it is (an opaque tenant: the key's id) and its client's cancellation. */
export interface RenderCaller {
  tenant?: string;
  signal?: CancelSignal;
}

/**
 * PDF and page images made in one worker thread (render-worker.ts), started on first use and
 * released when idle, so rendering never holds up the server's other requests. One job at a time
 * goes to the worker; the others wait in a bounded line served tenant by tenant (1305 when it is
 * full), and a job whose client leaves while waiting is dropped from it. A job already in the
 * worker runs to its end (stopping the thread would throw away its parsed fonts, ~2 s for the next
 * job); it is bounded by the page and pixel caps. A worker that dies fails the job it held and the
 * next job starts a new one.
 */
export class ArtifactRenderer {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: Rendered) => void; reject: (e: Error) => void }>();
  private readonly line: FairGate;

  /** `queueSize`: jobs that may wait for the worker. */
  constructor(queueSize = 16) {
    this.line = new FairGate(1, {
      limit: queueSize,
      fullMessage: 'Conversation artifacts: too many renders waiting, retry later',
      retryAfter: 5,
    });
  }

  /** Jobs waiting for the worker. */
  get waiting(): number {
    return this.line.waiting;
  }

  render(text: string, title: string, pages: PageSize[], caller: RenderCaller = {}): Promise<Rendered> {
    const tenant = caller.tenant ?? '';
    // With the worker free the job goes to it now, not a promise turn later (close() then fails it).
    if (this.line.tryEnter(tenant)) return this.run(text, title, pages);
    return this.line.enter(tenant, caller.signal).then(() => this.run(text, title, pages));
  }

  private run(text: string, title: string, pages: PageSize[]): Promise<Rendered> {
    return this.post(text, title, pages).finally(() => this.line.leave());
  }

  private post(text: string, title: string, pages: PageSize[]): Promise<Rendered> {
    const worker = this.start();
    const id = ++this.nextId;
    const job: RenderJob = { id, text, title, pages };
    return new Promise<Rendered>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    const closed = new Error('the artifact renderer was closed');
    this.line.clear(closed);
    this.fail(closed);
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    // Under tsx (tests, benchmarks) the worker is TypeScript source too: it registers tsx's loader
    // first (Node 20 does not apply `--import tsx` to a worker's own entry module).
    const entry = new URL('./render-worker.js', import.meta.url);
    const worker = import.meta.url.endsWith('.ts')
      ? new Worker(
          `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href.replace(/\.js$/, '.ts'))}); });`,
          { eval: true },
        )
      : new Worker(entry);
    worker.on('message', (result: RenderResult) => this.settle(result));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      this.fail(new Error(`the artifact renderer exited with code ${code}`));
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private settle(result: RenderResult): void {
    const waiter = this.pending.get(result.id);
    if (!waiter) return;
    this.pending.delete(result.id);
    if (this.pending.size === 0) this.worker?.unref();
    if (result.ok) waiter.resolve({ pdf: result.pdf, pageCount: result.pageCount, images: result.images });
    else waiter.reject(new Error(`rendering failed: ${result.error}`));
  }

  private fail(err: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }
}
