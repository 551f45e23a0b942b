import type { CancelSignal } from './cancel-signal.js';
import { FairQueue, type FairQueueOptions } from './fair-queue.js';

/**
 * At most `size` holders at once (workers, an upstream's concurrency cap); the others wait in a
 * FairQueue, so the next free place goes to keys in turn rather than first come, first served.
 */
export class FairGate {
  private busy = 0;
  private readonly queue: FairQueue<void>;

  constructor(
    readonly size: number,
    queue: FairQueueOptions,
  ) {
    this.queue = new FairQueue<void>(queue);
  }

  get inUse(): number {
    return this.busy;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** A place is free and nobody waits for one. */
  get hasRoom(): boolean {
    return this.busy < this.size && this.queue.length === 0;
  }

  /** Takes a place now if there is room; never waits. */
  tryEnter(key: string): boolean {
    if (!this.hasRoom) return false;
    this.busy++;
    this.queue.served(key);
    return true;
  }

  /** A place, at once or in `key`'s turn; 1305 when the line is full; the signal's reason when it aborts. */
  enter(key: string, signal?: CancelSignal): Promise<void> {
    if (this.tryEnter(key)) return Promise.resolve();
    return this.queue.wait(key, signal);
  }

  /** Gives a place back: to the next in line, else free. True when it became free. */
  leave(): boolean {
    if (this.queue.serve()) return false;
    this.busy--;
    return true;
  }

  /** Refuses everyone in line with `reason`. */
  clear(reason: unknown): void {
    this.queue.clear(reason);
  }
}
