import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { openSearchIndex } from '../../src/search/open-index.js';
import { StoreUnavailableError, storeFault } from '../../src/stores/faults.js';
import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import type { KeyRecord } from '../../src/stores/types.js';
import { OwnDatabase } from '../helpers/own-postgres.js';
import { freePort } from '../helpers/own-redis.js';

/**
 * Real faults on a database of this file's own: its connections are terminated (what a failover,
 * a proxy restart or an idle timeout does) while the stores use them.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const key = (id: string, name = 'k'): KeyRecord => ({
  id,
  name,
  secretHash: 'a'.repeat(64),
  secretEncrypted: 'x',
  endpoints: ['general'],
  role: 'user',
  limits: undefined,
  createdAt: 1000,
  revokedAt: undefined,
});

async function until(ms: number, ok: () => boolean | Promise<boolean>): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return true;
    await sleep(25);
  }
  return ok();
}

let db: OwnDatabase;
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);

beforeAll(async () => {
  db = await OwnDatabase.create();
  process.on('uncaughtException', onUncaught);
});
afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await db?.drop();
});

describe('connections terminated under the stores', () => {
  it('is what ended the process: an idle pooled connection terminated emits an error on its pool', async () => {
    // The search index's pool had no 'error' listener: this event, unhandled, ended the server.
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    await pool.query('SELECT 1');
    const emitted = new Promise<Error>((resolve) => pool.once('error', resolve));
    await db.terminate();
    const err = await emitted;
    expect(storeFault(err)?.cause).toBe('the server terminated the connection');
    await pool.end();
  });

  it('leaves the search index usable: its pool survives termination and reconnects', async () => {
    const { config } = loadConfig({
      file: undefined,
      cwd: '/',
      env: { DATABASE_URL: db.url, GEN_PLATFORM_DATA: '/tmp' },
    });
    const index = await openSearchIndex(config);
    await index.upsert([{ url: 'https://a.example/1', title: 'alpha', content: 'alpha beta' }]);
    await db.terminate();
    await sleep(200);
    expect(uncaught).toEqual([]);
    await index.upsert([{ url: 'https://a.example/2', title: 'gamma', content: 'gamma delta' }]);
    expect((await index.query({ text: 'gamma', count: 5 })).length).toBe(1);
    await index.close();
  });

  it('survives termination mid-load: every failure is a named fault, and it recovers by itself', async () => {
    const store = await PostgresStore.open({ url: db.url, schema: 'load', retryMs: 300 });
    await store.createKey(key('1'.repeat(32)));
    let stop = false;
    const failures: unknown[] = [];
    let ok = 0;
    const worker = async () => {
      while (!stop) {
        try {
          await store.usageTotals('1'.repeat(32));
          await store.setCache(`c${ok % 10}`, 'v', Date.now() + 60_000);
          ok++;
        } catch (err) {
          failures.push(err);
        }
      }
    };
    const workers = [worker(), worker(), worker(), worker()];
    for (let i = 0; i < 3; i++) {
      await sleep(150);
      await db.terminate();
    }
    await sleep(150);
    stop = true;
    await Promise.all(workers);
    expect(uncaught).toEqual([]);
    for (const err of failures) expect(err).toBeInstanceOf(StoreUnavailableError);
    // Reads and upserts are repeated after a lost connection: terminations cost (almost) nothing.
    expect(failures.length).toBeLessThan(ok / 10 + 3);
    expect((await store.usageTotals('1'.repeat(32))).requests).toBe(0);
    expect(store.status.current.state).toBe('up');
    await store.close();
  });

  it('bounds a query that gets no answer (database.query_timeout_seconds), and drops its connection', async () => {
    const store = await PostgresStore.open({ url: db.url, schema: 'slow', queryTimeoutMs: 300, retryMs: 0 });
    const started = Date.now();
    const err = await store.db.query('SELECT pg_sleep(2)').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toBe('The database is unavailable (no answer in time); retry shortly');
    expect((await store.db.query<{ n: number }>('SELECT 1 AS n')).rows[0]?.n).toBe(1);
    await store.close();
  });

  it('gives up start-up after database.connect_timeout_seconds, naming the cause', async () => {
    const port = await freePort();
    const started = Date.now();
    const err = await PostgresStore.open({ url: `postgres://postgres@127.0.0.1:${port}/x`, startupWaitMs: 600 }).catch(
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).message).toMatch(/unavailable \(connection refused; waited 1 s/);
  });
});

describe('the key-change listener', () => {
  let a: PostgresStore;
  let b: PostgresStore;

  beforeAll(async () => {
    a = await PostgresStore.open({ url: db.url, schema: 'keys' });
    b = await PostgresStore.open({ url: db.url, schema: 'keys', keyCacheTtlMs: 400, listenCheckMs: 200 });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('is re-established after its connection is cut, and revocations are seen again', async () => {
    const k = key('2'.repeat(32));
    await a.createKey(k);
    expect((await b.getKey(k.id))?.revokedAt).toBeUndefined();
    expect(await until(2000, () => b.listening)).toBe(true);
    expect(await db.terminate('gen-platform keys%')).toBeGreaterThanOrEqual(2);
    await until(1000, () => !b.listening);
    expect(await until(5000, () => b.listening)).toBe(true);
    await b.getKey(k.id); // cached again under the new connection
    await a.revokeKey(k.id, 5000);
    // Seen through the notification, well within the TTL.
    expect(await until(300, async () => (await b.getKey(k.id))?.revokedAt === 5000)).toBe(true);
  });

  it('reads a row again after the TTL even when no notification comes', async () => {
    const k = key('3'.repeat(32), 'before');
    await a.createKey(k);
    expect((await b.getKey(k.id))?.name).toBe('before');
    // Changed without a notification (as if it were lost).
    await a.pool.query('UPDATE api_keys SET name = $1 WHERE id = $2', ['after', k.id]);
    expect((await b.getKey(k.id))?.name).toBe('before');
    await sleep(450);
    expect((await b.getKey(k.id))?.name).toBe('after');
  });
});
