import { overloaded } from '../../errors/errors.js';

/**
 * At most `concurrency` password hashes at once (each costs ~64 MiB and a core for a tenth of a
 * second), and at most `queue` waiting: past that a sign-in is refused at once with 1305 and
 * Retry-After, so a flood of sign-ins can neither exhaust memory nor queue without bound.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queue: number,
  ) {}

  async run<T>(hash: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) {
        throw overloaded('Too many sign-ins at once: try again in a moment', { retryAfter: 1 });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await hash();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter; only when none waits is it freed.
      if (next) next();
      else this.running--;
    }
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
