import { Worker } from 'node:worker_threads';
import type { PageSize } from './page-image.js';
import type { RenderCancel, RenderJob, RenderResult } from './render-worker.js';

export interface Rendered {
  pdf: Uint8Array;
  pageCount: number;
  /** One PNG a page asked for; empty when a position is past the last page. */
  images: Uint8Array[];
}

/**
 * PDF and page images made in one worker thread (render-worker.ts), started on first use and
 * released when idle, so rendering never holds up the server's other requests. Jobs queue in the
 * worker; a worker that dies fails the jobs it held and the next job starts a new one.
 */
export class ArtifactRenderer {
  private worker: Worker | undefined;
  /** Jobs the worker dropped because their clients had left (for tests and metrics). */
  dropped = 0;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (r: Rendered) => void; reject: (e: Error) => void }>();

  /** `signal`: the clients waiting for it have left; the job is dropped (between pages if it has begun). */
  render(text: string, title: string, pages: PageSize[], signal?: AbortSignal): Promise<Rendered> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const worker = this.start();
    const id = ++this.nextId;
    const job: RenderJob = { id, text, title, pages };
    return new Promise<Rendered>((resolve, reject) => {
      const drop = () => {
        if (!this.pending.delete(id)) return;
        if (this.pending.size === 0) this.worker?.unref();
        this.worker?.postMessage({ cancel: id } satisfies RenderCancel);
        reject(signal?.reason);
      };
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', drop);
          done(value);
        };
      this.pending.set(id, { resolve: settle(resolve), reject: settle(reject) });
      signal?.addEventListener('abort', drop, { once: true });
      worker.ref();
      worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.fail(new Error('the artifact renderer was closed'));
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
    if ('dropped' in result) {
      this.dropped++;
      return;
    }
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
