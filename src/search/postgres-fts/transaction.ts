import type { Pool, PoolClient } from 'pg';
import { storeFault } from '../../stores/faults.js';

const ATTEMPTS = 3;

/**
 * Runs `body` in a transaction on a client of its own: committed if it returns, rolled back if it
 * throws. A transaction the server rolled back for a transient fault that left nothing behind (a
 * serialization failure, a deadlock, no connection to be had) runs again, up to ATTEMPTS times with
 * a short backoff: `body` must only read and write through `client`, so a second run is a clean one.
 */
export async function inTransaction<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once(pool, body);
    } catch (err) {
      if (attempt >= ATTEMPTS || !storeFault(err)?.notRun) throw err;
      await new Promise((r) => setTimeout(r, 50 * 4 ** (attempt - 1) * (0.5 + Math.random())));
    }
  }
}

async function once<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch((e: Error) => {
      broken = e; // the connection is unusable: the pool must not hand it out again
    });
    throw err; // the original error is the one to report
  } finally {
    client.release(broken);
  }
}
