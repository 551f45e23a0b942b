import type { Pool } from 'pg';

export const SCHEMA_VERSION = 1;

// Unqualified names: the tables land in the pool's current schema (its search_path), so a
// deployment or a test picks the schema by connection settings, not by code.
const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE IF NOT EXISTS search_documents (
      id bigserial PRIMARY KEY,
      collection text NOT NULL,
      url text NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      site text,
      host text NOT NULL,
      published text,
      published_ms bigint,
      tsv tsvector NOT NULL,
      UNIQUE (collection, url)
    );
    CREATE INDEX IF NOT EXISTS search_documents_tsv ON search_documents USING gin (tsv);
    CREATE INDEX IF NOT EXISTS search_documents_host ON search_documents (collection, host);
  `,
};

export async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two processes starting together must not both run CREATE TABLE; the lock is per schema.
    await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.search_meta'))");
    await client.query('CREATE TABLE IF NOT EXISTS search_meta (key text PRIMARY KEY, value text NOT NULL)');
    const res = await client.query<{ value: string }>("SELECT value FROM search_meta WHERE key = 'schema_version'");
    const current = res.rows[0] ? Number(res.rows[0].value) : 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(`search index schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
    }
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      await client.query(MIGRATIONS[v]!);
      await client.query(
        `INSERT INTO search_meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(v)],
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined); // the original error is the one to report
    throw err;
  } finally {
    client.release();
  }
}
