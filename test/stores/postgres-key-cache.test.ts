import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_CHANNEL } from '../../src/stores/postgres/key-change-listener.js';
import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import type { KeyRecord } from '../../src/stores/types.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const key = (id: string): KeyRecord => ({
  id,
  name: 'cached',
  secretHash: 'a'.repeat(64),
  secretEncrypted: 'x',
  endpoints: ['general'],
  role: 'user',
  limits: undefined,
  createdAt: 1000,
  revokedAt: undefined,
});

/** Polls until `read` gives a defined value or `ms` pass; bounded. */
async function within<T>(ms: number, read: () => Promise<T | undefined>): Promise<T | undefined> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined || Date.now() > until) return value;
    await sleep(20);
  }
}

describe('PostgresStore key-row cache', () => {
  let a: PostgresStore;
  let b: PostgresStore;
  let drop: () => Promise<void>;
  let schema: string;

  beforeAll(async () => {
    ({ schema, drop } = await freshSchema());
    a = await PostgresStore.open({ url: DATABASE_URL, schema });
    b = await PostgresStore.open({ url: DATABASE_URL, schema });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await drop();
  });

  it('serves repeated reads without a query, until a notification says the row changed', async () => {
    const k = key('6'.repeat(32));
    await a.createKey(k);
    await b.getKey(k.id);
    // Changed behind the store's back (no notification): the cached row is still served...
    await a.pool.query('UPDATE api_keys SET name = $1 WHERE id = $2', ['renamed', k.id]);
    expect((await b.getKey(k.id))?.name).toBe('cached');
    // ...until anyone announces the change, as every store method that changes a key does.
    await a.pool.query('SELECT pg_notify($1, $2)', [KEY_CHANNEL, `${schema}:${k.id}`]);
    expect(await within(1000, async () => ((await b.getKey(k.id))?.name === 'renamed' ? true : undefined))).toBe(true);
  });

  it('ignores notifications about another schema', async () => {
    const k = key('7'.repeat(32));
    await a.createKey(k);
    await b.getKey(k.id);
    await a.pool.query('UPDATE api_keys SET name = $1 WHERE id = $2', ['renamed', k.id]);
    await a.pool.query('SELECT pg_notify($1, $2)', [KEY_CHANNEL, `other_schema:${k.id}`]);
    await sleep(200);
    expect((await b.getKey(k.id))?.name).toBe('cached');
  });

  it('a revocation on one store is seen by the other within 1 s', async () => {
    const k = key('8'.repeat(32));
    await a.createKey(k);
    expect((await b.getKey(k.id))?.revokedAt).toBeUndefined();
    await a.revokeKey(k.id, 9_000);
    expect(await within(1000, async () => (await b.getKey(k.id))?.revokedAt)).toBe(9_000);
  });

  it('when its listening connection is cut, the cache is off until it listens again, and no change is missed', async () => {
    const k = key('9'.repeat(32));
    await a.createKey(k);
    await b.getKey(k.id);
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    try {
      // Cut the listeners of this schema's stores (a and b; each reconnects by itself).
      const cut = await admin.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`gen-platform keys ${schema}`],
      );
      expect(cut.rowCount).toBe(2);
      // A change while b may not be listening: reads go to the database, so it is seen.
      await a.pool.query('UPDATE api_keys SET revoked_at = 1 WHERE id = $1', [k.id]);
      expect(await within(1000, async () => (await b.getKey(k.id))?.revokedAt)).toBe(1);
      // Listening again: later notified changes are seen too.
      await sleep(1000);
      await a.revokeKey(k.id, 2);
      await a.pool.query('UPDATE api_keys SET name = $1 WHERE id = $2', ['after', k.id]);
      await a.pool.query('SELECT pg_notify($1, $2)', [KEY_CHANNEL, `${schema}:${k.id}`]);
      expect(await within(1000, async () => ((await b.getKey(k.id))?.name === 'after' ? true : undefined))).toBe(true);
    } finally {
      await admin.end();
    }
  });
});
