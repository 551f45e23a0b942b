import { overloaded } from '../../../errors/errors.js';
import type { CancelSignal } from '../../../util/cancel-signal.js';

export interface Lease<T> {
  readonly item: T;
  release(): void;
}

interface Waiter<T> {
  resolve(lease: Lease<T>): void;
  reject(reason: unknown): void;
  signal: CancelSignal;
  onAbort(): void;
}

/**
 * A fixed set of items (context sequences) lent one request at a time, with a bounded FIFO wait
 * queue. A free item is chosen by `score` (the longest reusable prompt prefix); a full queue is
 * refused at once with 1305, and a waiter whose signal aborts leaves the queue.
 */
export class SequencePool<T> {
  private readonly free: T[];
  private readonly waiters: Waiter<T>[] = [];
  /** All items, lent or free. */
  readonly size: number;

  constructor(
    items: readonly T[],
    private readonly queueLimit: number,
  ) {
    this.free = [...items];
    this.size = items.length;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  get available(): number {
    return this.free.length;
  }

  acquire(signal: CancelSignal, score: (item: T) => number = () => 0): Promise<Lease<T>> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free.length > 0 && this.waiters.length === 0) {
      let best = 0;
      for (let i = 1; i < this.free.length; i++) {
        if (score(this.free[i] as T) > score(this.free[best] as T)) best = i;
      }
      const [item] = this.free.splice(best, 1);
      return Promise.resolve(this.lease(item as T));
    }
    if (this.waiters.length >= this.queueLimit) {
      return Promise.reject(
        overloaded('The server is overloaded (generation queue full), please retry later', { retryAfter: 1 }),
      );
    }
    return new Promise<Lease<T>>((resolve, reject) => {
      const waiter: Waiter<T> = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.waiters.indexOf(waiter);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal.reason);
        },
      };
      signal.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private lease(item: T): Lease<T> {
    let released = false;
    return {
      item,
      release: () => {
        if (released) return;
        released = true;
        this.giveBack(item);
      },
    };
  }

  private giveBack(item: T): void {
    const next = this.waiters.shift();
    if (next === undefined) {
      this.free.push(item);
      return;
    }
    next.signal.removeEventListener('abort', next.onAbort);
    next.resolve(this.lease(item));
  }
}
