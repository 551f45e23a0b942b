import type { CancelSignal } from '../../util/cancel-signal.js';
import { FairGate } from '../../util/fair-gate.js';

/**
 * The process's image-job slots (`images.concurrency`), shared by sync calls and task workers,
 * with a bounded line of sync callers waiting for one (`images.queue_size`), served key by key
 * (util/fair-queue.ts) so that one key's burst does not hold up another key's image. A full line
 * answers 1305 at once, never an unbounded wait.
 */
export class JobSlots {
  private readonly gate: FairGate;
  private readonly freed = new Set<() => void>();

  constructor(
    readonly size: number,
    lineLimit: number,
  ) {
    this.gate = new FairGate(size, {
      limit: lineLimit,
      fullMessage: 'Image generation is at capacity: too many jobs waiting, retry later',
      retryAfter: 5,
    });
  }

  get inUse(): number {
    return this.gate.inUse;
  }

  /** A slot now, or false; sync callers in line go first. */
  tryAcquire(tenant = ''): boolean {
    return this.gate.tryEnter(tenant);
  }

  /** Waits for a slot in `tenant`'s turn; 1305 when the line is full; the signal's reason when the caller goes away. */
  acquire(signal: CancelSignal, tenant = ''): Promise<void> {
    return this.gate.enter(tenant, signal);
  }

  release(): void {
    if (!this.gate.leave()) return;
    for (const listener of this.freed) listener();
  }

  /** Calls `listener` whenever a slot becomes free for workers; returns the unsubscribe. */
  onFree(listener: () => void): () => void {
    this.freed.add(listener);
    return () => this.freed.delete(listener);
  }
}
