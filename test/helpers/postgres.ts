import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test database; CI starts PostgreSQL, so a missing server is a failure, not a skip. */
export const DATABASE_URL = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema for one test file, and a function that drops it. */
export async function freshSchema(): Promise<{ schema: string; drop(): Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  return {
    schema,
    async drop() {
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
