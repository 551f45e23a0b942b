import { invalidField } from '../../errors/errors.js';
import { createDeadline, type Deadline } from '../../net/deadline.js';
import type { CancelSignal } from '../../util/cancel-signal.js';

const mb = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** The configuration keys that set a budget, named in its refusals. */
export interface BudgetKeys {
  /** e.g. `tokenizer.media_max_bytes` */
  bytes: string;
  /** e.g. `tokenizer.media_deadline_seconds` */
  seconds: string;
}

/**
 * What the media items of one request may cost together: one deadline for all their fetches
 * (merged with the client's cancellation, so a client that leaves stops them) and one byte budget.
 */
export class MediaBudget {
  readonly deadline: Deadline;
  private left: number;

  constructor(
    readonly maxBytes: number,
    seconds: number,
    private readonly keys: BudgetKeys,
    signal?: CancelSignal,
  ) {
    this.left = maxBytes;
    this.deadline = createDeadline(seconds, signal);
  }

  /** Bytes the next fetch may read: its own limit, or what the request has left if that is less. */
  allowance(itemMax: number): number {
    return Math.min(itemMax, this.left);
  }

  /** Whether a fetch that hit `allowance(itemMax)` was stopped by the request's budget rather than its own limit. */
  limitedBy(itemMax: number): boolean {
    return this.left < itemMax;
  }

  spend(bytes: number): void {
    this.left = Math.max(0, this.left - bytes);
  }

  /** Stops at once when the client has gone or the request's time is up; each fetch checks it first. */
  check(field: string): void {
    const { signal } = this.deadline;
    if (!signal.aborted) return;
    if (this.deadline.timedOut()) throw this.timedOut(field);
    throw signal.reason instanceof Error ? signal.reason : new Error('the client went away');
  }

  overBudget(field: string) {
    return invalidField(
      field,
      `the media items of one request may fetch at most ${mb(this.maxBytes)} together (${this.keys.bytes}), and this one goes past it`,
    );
  }

  timedOut(field: string) {
    return invalidField(
      field,
      `fetching the media items of one request may take at most ${this.deadline.seconds} s together (${this.keys.seconds}), and this one was still being fetched`,
    );
  }

  dispose(): void {
    this.deadline.dispose();
  }
}
