import type { CancelSignal } from '../../../util/cancel-signal.js';
import { FairQueue } from '../../../util/fair-queue.js';

export interface Lease<T> {
  readonly item: T;
  release(): void;
}

/**
 * A fixed set of items (context sequences) lent one request at a time. A free item is chosen by
 * `score` (the longest reusable prompt prefix), ties by its place in the set: the sequences in use
 * then stay neighbours by id, which llama.cpp decodes in one pass (batch-order.ts); requests that find none wait in a bounded
 * FairQueue, one lane per tenant served in turn, so one tenant's burst does not hold up another's
 * request for the whole burst. A full queue is refused at once with 1305, and a waiter whose
 * signal aborts leaves the queue.
 */
export class SequencePool<T> {
  private readonly free: T[];
  /** Each item's place in the set, for ties. */
  private readonly place: Map<T, number>;
  private readonly queue: FairQueue<T>;
  /** All items, lent or free. */
  readonly size: number;

  constructor(items: readonly T[], queueLimit: number) {
    this.free = [...items];
    this.place = new Map(items.map((item, i) => [item, i]));
    this.size = items.length;
    this.queue = new FairQueue<T>({
      limit: queueLimit,
      fullMessage: 'The server is overloaded (generation queue full), please retry later',
      retryAfter: 1,
    });
  }

  get waiting(): number {
    return this.queue.length;
  }

  get available(): number {
    return this.free.length;
  }

  acquire(tenant: string, signal: CancelSignal, score: (item: T) => number = () => 0): Promise<Lease<T>> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.free.length > 0 && this.queue.length === 0) {
      let best = 0;
      let bestScore = score(this.free[0] as T);
      for (let i = 1; i < this.free.length; i++) {
        const item = this.free[i] as T;
        const s = score(item);
        if (s > bestScore || (s === bestScore && this.placeOf(item) < this.placeOf(this.free[best] as T))) {
          best = i;
          bestScore = s;
        }
      }
      const [item] = this.free.splice(best, 1);
      this.queue.served(tenant);
      return Promise.resolve(this.lease(item as T));
    }
    return this.queue.wait(tenant, signal).then((item) => this.lease(item));
  }

  private placeOf(item: T): number {
    return this.place.get(item) ?? 0;
  }

  private lease(item: T): Lease<T> {
    let released = false;
    return {
      item,
      release: () => {
        if (released) return;
        released = true;
        if (!this.queue.serve(item)) this.free.push(item);
      },
    };
  }
}
