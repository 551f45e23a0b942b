import type { Pool, PoolClient } from 'pg';

/** Runs `body` in a transaction on a client of its own: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(pool: Pool, body: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined); // the original error is the one to report
    throw err;
  } finally {
    client.release();
  }
}
