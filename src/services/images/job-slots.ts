import { overloaded } from '../../errors/errors.js';

interface Waiter {
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The process's image-job slots (`images.concurrency`), shared by sync calls and task workers,
 * with a bounded line of sync callers waiting for one (`images.queue_size`). A full line answers
 * 1305 at once, never an unbounded wait.
 */
export class JobSlots {
  private busy = 0;
  private readonly waiting: Waiter[] = [];
  private readonly freed = new Set<() => void>();

  constructor(
    readonly size: number,
    private readonly lineLimit: number,
  ) {}

  get inUse(): number {
    return this.busy;
  }

  /** A slot now, or false; sync callers in line go first. */
  tryAcquire(): boolean {
    if (this.busy >= this.size || this.waiting.length > 0) return false;
    this.busy++;
    return true;
  }

  /** Waits for a slot; 1305 when the line is full; the signal's reason when the caller goes away. */
  acquire(signal: AbortSignal): Promise<void> {
    if (this.tryAcquire()) return Promise.resolve();
    if (this.waiting.length >= this.lineLimit) {
      return Promise.reject(
        overloaded('Image generation is at capacity: too many jobs waiting, retry later', { retryAfter: 5 }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        const at = this.waiting.indexOf(waiter);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) {
      next.resolve();
      return;
    }
    this.busy--;
    for (const listener of this.freed) listener();
  }

  /** Calls `listener` whenever a slot becomes free for workers; returns the unsubscribe. */
  onFree(listener: () => void): () => void {
    this.freed.add(listener);
    return () => this.freed.delete(listener);
  }
}
