import { storeFault } from './faults.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a store write that is safe to repeat until it works, while the store is faulty (down, full,
 * busy), for up to `forMs` with backoff (0.2 s doubling to 5 s); other errors, and the fault that
 * outlasts `forMs`, are thrown. For background work (a task's result) that would otherwise be lost
 * to a database that is away for a moment.
 */
export async function retryThroughFaults<T>(write: () => Promise<T>, forMs: number): Promise<T> {
  const deadline = Date.now() + forMs;
  let delay = 200;
  for (;;) {
    try {
      return await write();
    } catch (err) {
      if (!storeFault(err) || Date.now() + delay > deadline) throw err;
      await sleep(delay * (0.5 + Math.random()));
      delay = Math.min(delay * 2, 5000);
    }
  }
}
