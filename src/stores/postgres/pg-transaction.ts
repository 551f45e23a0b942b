import type pg from 'pg';
import { retryable, StoreUnavailableError } from '../faults.js';
import type { PgDb } from './pg-db.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `work` in a transaction on one connection of the pool. A fault is handled as PgDb handles
 * one (faults.ts): retried with backoff within `budgetMs` when the whole transaction may run again
 * (it certainly did not commit, or it is `idempotent`), then a StoreUnavailableError. Any other
 * error rolls back and is thrown as it is.
 */
export async function inTransaction<T>(
  db: PgDb,
  work: (client: pg.PoolClient) => Promise<T>,
  options: { idempotent: boolean; budgetMs?: number },
): Promise<T> {
  const deadline = db.status.up ? Date.now() + (options.budgetMs ?? 1000) : 0;
  let delay = 50;
  for (;;) {
    let client: pg.PoolClient | undefined;
    let committing = false;
    try {
      client = await db.pool.connect();
      await client.query('BEGIN');
      const result = await work(client);
      committing = true;
      await client.query('COMMIT');
      db.status.succeeded(true);
      client.release();
      return result;
    } catch (err) {
      const fault = db.status.failed(err);
      // A connection that failed is not given back to the pool for another caller.
      if (client) {
        if (!fault) await client.query('ROLLBACK').catch(() => undefined);
        client.release(fault ? (err as Error) : undefined);
      }
      if (!fault) throw err;
      // Before COMMIT was sent, a transaction that failed certainly did not commit.
      const again = retryable(fault, options.idempotent) || !committing;
      const pause = delay * (0.5 + Math.random());
      if (!again || Date.now() + pause > deadline) throw new StoreUnavailableError(fault, { cause: err });
      await sleep(pause);
      delay = Math.min(delay * 2, 1000);
    }
  }
}
