/**
 * Push to pull: the model calls report text through callbacks, the run is consumed as an async
 * iterator. Unbounded, because the model paces the producer, not the consumer.
 */
export class DeltaQueue {
  private readonly items: string[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(item: string): void {
    this.items.push(item);
    this.notify();
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.notify();
  }

  async *drain(): AsyncGenerator<string> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) {
        yield item;
        continue;
      }
      if (this.failure) throw this.failure.error;
      if (this.closed) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
