import type { Store, UsageRecord, UsageWindow } from '../../stores/types.js';

export interface UsageRecorderOptions {
  /** How long a record may wait to be written with others. */
  delayMs?: number;
  maxBatch?: number;
  onError(err: unknown, records: number): void;
}

/**
 * Writes usage records in batches: one transaction per batch instead of one per request, which
 * was the largest store cost on the request path. Records not yet written still count towards
 * usage windows (`pending`), so limits hold while they wait.
 */
export class UsageRecorder {
  private queue: UsageRecord[] = [];
  private writing: UsageRecord[] = [];
  private timer: NodeJS.Timeout | undefined = undefined;
  private written: Promise<void> = Promise.resolve();
  private readonly delayMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly store: Store,
    private readonly options: UsageRecorderOptions,
  ) {
    this.delayMs = options.delayMs ?? 50;
    this.maxBatch = options.maxBatch ?? 500;
  }

  record(record: UsageRecord): void {
    this.queue.push(record);
    if (this.queue.length >= this.maxBatch) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.delayMs);
      this.timer.unref();
    }
  }

  /** Records waiting to be written (for metrics). */
  get queued(): number {
    return this.queue.length + this.writing.length;
  }

  /** The key's records since a time that are not in the store yet. */
  pending(keyId: string, since: number): UsageWindow {
    let count = 0;
    let oldest: number | undefined;
    for (const r of [...this.writing, ...this.queue]) {
      if (r.keyId !== keyId || r.createdAt < since) continue;
      count++;
      if (oldest === undefined || r.createdAt < oldest) oldest = r.createdAt;
    }
    return { count, oldest };
  }

  /** Writes what is queued; resolves when everything recorded so far is in the store. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length === 0) return this.written;
    const batch = this.queue;
    this.queue = [];
    this.written = this.written.then(async () => {
      this.writing = batch;
      try {
        await this.store.recordUsage(batch);
      } catch (err) {
        this.options.onError(err, batch.length);
      } finally {
        this.writing = [];
      }
    });
    return this.written;
  }
}
