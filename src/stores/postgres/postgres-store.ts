import pg from 'pg';
import {
  type KeyRow,
  keyFromRow,
  keyToParams,
  totalsFromRows,
  USAGE_TOTALS_SELECT,
  type UsageTotalsRow,
} from '../rows.js';
import type { KeyRecord, PurgeOptions, PurgeResult, Store, UsageRecord, UsageTotals, UsageWindow } from '../types.js';
import { PostgresConversations } from './conversations.js';
import { KEY_CHANNEL, KeyChangeListener, KeyRowCache } from './key-change-listener.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { PostgresAccounts } from './postgres-accounts.js';
import { PostgresTaskStore } from './postgres-tasks.js';

// BIGINT columns hold millisecond times; they fit a JS number exactly, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** An arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_316_425_001;

export interface PostgresStoreOptions {
  url: string;
  /** Schema to create and use; default the connection's own search_path. */
  schema?: string | undefined;
  maxConnections?: number;
  /** An idle pooled connection failed (e.g. the server restarted); the pool replaces it. */
  onIdleError?: (err: Error) => void;
}

/**
 * The store shared by several server processes. Key rows are cached per process; every statement
 * that changes a row of api_keys must also `pg_notify(KEY_CHANNEL, '<schema>:<id>')` (see
 * revokeKey) so that the other processes drop their copy.
 */
export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  private readonly keyCache = new KeyRowCache();
  private listener: KeyChangeListener | undefined;
  /** The schema in use, named in key-change notifications so other schemas' changes are ignored. */
  private schema = '';
  readonly accounts: PostgresAccounts;
  readonly tasks: PostgresTaskStore;
  readonly conversations: PostgresConversations;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
    this.accounts = new PostgresAccounts(pool);
    this.tasks = new PostgresTaskStore(pool);
    this.conversations = new PostgresConversations(pool);
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const { schema } = options;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // Without a listener, an idle connection that the server drops would crash the process.
    pool.on(
      'error',
      options.onIdleError ?? ((err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`)),
    );
    const store = new PostgresStore(pool);
    try {
      if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await store.migrate();
      const { rows } = await pool.query<{ s: string }>('SELECT current_schema() AS s');
      store.schema = rows[0]?.s ?? '';
      store.listener = new KeyChangeListener(
        { connectionString: options.url, application_name: `gen-platform keys ${store.schema}` },
        store.schema,
        store.keyCache,
      );
      await store.listener.start();
    } catch (err) {
      await pool.end();
      throw err;
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      // Each version by itself, not "above the highest": a version merged in late still gets applied.
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((r) => r.version));
      for (const migration of POSTGRES_MIGRATIONS) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
            migration.version,
            Date.now(),
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK');
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  async createKey(key: KeyRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO api_keys (id, name, secret_hash, secret_encrypted, endpoints, role, limits, created_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      keyToParams(key),
    );
  }

  getKey(id: string): Promise<KeyRecord | undefined> {
    return this.keyCache.get(id, (key) => this.readKey(key));
  }

  private async readKey(id: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] && keyFromRow(rows[0]);
  }

  async listKeys(): Promise<KeyRecord[]> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    return rows.map(keyFromRow);
  }

  async revokeKey(id: string, at: number): Promise<boolean> {
    // Every change to a key row notifies in its own statement, so the other processes' caches
    // hear of it when it commits (and only then).
    const result = await this.pool.query(
      `WITH changed AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id)
       SELECT pg_notify($3, $4 || ':' || id) FROM changed`,
      [at, id, KEY_CHANNEL, this.schema],
    );
    this.keyCache.forget(id);
    return (result.rowCount ?? 0) > 0;
  }

  async recordUsage(records: UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const column = <T>(pick: (r: UsageRecord) => T) => records.map(pick);
    await this.pool.query(
      `INSERT INTO usage_records (key_id, operation, model, request_id, prompt_tokens, completion_tokens, status, latency_ms, created_at, journal_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::float8[], $9::bigint[], $10::text[])
       ON CONFLICT (journal_id) DO NOTHING`,
      [
        column((r) => r.keyId),
        column((r) => r.operation),
        column((r) => r.model ?? null),
        column((r) => r.requestId ?? null),
        column((r) => r.promptTokens),
        column((r) => r.completionTokens),
        column((r) => r.status),
        column((r) => r.latencyMs),
        column((r) => r.createdAt),
        column((r) => r.journalId ?? null),
      ],
    );
  }

  async usageTotals(keyId: string, since = 0): Promise<UsageTotals> {
    const { rows } = await this.pool.query<UsageTotalsRow>(
      `${USAGE_TOTALS_SELECT} WHERE key_id = $1 AND created_at >= $2 GROUP BY operation`,
      [keyId, since],
    );
    return totalsFromRows(rows);
  }

  async usageWindow(keyId: string, since: number): Promise<UsageWindow> {
    const { rows } = await this.pool.query<{ count: string; oldest: number | null }>(
      'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM usage_records WHERE key_id = $1 AND created_at >= $2',
      [keyId, since],
    );
    return { count: Number(rows[0]?.count ?? 0), oldest: rows[0]?.oldest ?? undefined };
  }

  async claimRequestId(keyId: string, requestId: string, at: number): Promise<boolean> {
    const result = await this.pool.query(
      'INSERT INTO request_ids (key_id, request_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [keyId, requestId, at],
    );
    return result.rowCount === 1;
  }

  async getCache(key: string, now: number): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ value: string }>(
      'SELECT value FROM cache_entries WHERE key = $1 AND expires_at > $2',
      [key, now],
    );
    return rows[0]?.value;
  }

  async setCache(key: string, value: string, expiresAt: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO cache_entries (key, value, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
      [key, value, expiresAt],
    );
  }

  async purge(options: PurgeOptions): Promise<PurgeResult> {
    const expired = await this.pool.query('DELETE FROM cache_entries WHERE expires_at <= $1', [options.now]);
    // Keeps the entries that expire last while their running total fits the cap.
    const overCap = await this.pool.query(
      `DELETE FROM cache_entries WHERE key IN (
         SELECT key FROM (
           SELECT key, SUM(octet_length(value)) OVER (ORDER BY expires_at DESC, key) AS kept FROM cache_entries
         ) AS running WHERE kept > $1
       )`,
      [options.cacheMaxBytes],
    );
    const ids = await this.pool.query('DELETE FROM request_ids WHERE created_at < $1', [options.requestIdsBefore]);
    return { cacheEntries: (expired.rowCount ?? 0) + (overCap.rowCount ?? 0), requestIds: ids.rowCount ?? 0 };
  }

  async close(): Promise<void> {
    await this.listener?.close();
    await this.pool.end();
  }
}
