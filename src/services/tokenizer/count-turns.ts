import type { CancelSignal } from '../../util/cancel-signal.js';

/**
 * Large counts one at a time, each started from a fresh turn of the event loop. An engine's
 * tokenizer may run on the loop itself (llama.cpp's and the Hugging Face tokenizers are
 * synchronous); the size cap bounds one count, and this keeps several from running back to back in
 * one turn, so requests that arrived meanwhile (`/health` among them) are served between them.
 */
export class CountTurns {
  private busy = false;
  private readonly waiting: Array<() => void> = [];

  async run<T>(work: () => Promise<T>, signal?: CancelSignal): Promise<T> {
    if (this.busy) await this.wait(signal);
    else this.busy = true;
    try {
      // A turn of its own: what else is ready runs first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (signal?.aborted) throw signal.reason;
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy = false;
    }
  }

  /** Resolves when the turn is handed over; a client gone meanwhile leaves the line. */
  private wait(signal?: CancelSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(take);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal?.reason);
      };
      const take = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }
}
