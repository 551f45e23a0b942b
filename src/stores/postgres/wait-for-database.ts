import type pg from 'pg';
import { StoreUnavailableError, storeFault } from '../faults.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Start-up waits for a database that is not up yet (started together with the server, restarting,
 * failing over), up to `waitMs`, with backoff; then gives up with the fault named. An error that is
 * no fault (wrong password, no such database) fails at once: waiting would not cure it.
 */
export async function waitForDatabase(
  pool: pg.Pool,
  waitMs: number,
  onWait: (cause: string) => void = () => {},
): Promise<void> {
  const deadline = Date.now() + waitMs;
  let delay = 100;
  for (;;) {
    try {
      await pool.query('SELECT 1');
      return;
    } catch (err) {
      const fault = storeFault(err);
      if (!fault) throw err;
      if (Date.now() + delay > deadline) {
        throw new StoreUnavailableError(
          {
            ...fault,
            cause: `${fault.cause}; waited ${Math.round(waitMs / 1000)} s (database.connect_timeout_seconds)`,
          },
          { cause: err },
        );
      }
      onWait(fault.cause);
      await sleep(delay);
      delay = Math.min(delay * 2, 2000);
    }
  }
}
