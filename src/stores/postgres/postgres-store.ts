import pg from 'pg';
import { Calendar } from '../../util/calendar.js';
import { DependencyStatus } from '../dependency-status.js';
import {
  EMPTY_KEY,
  type KeyRow,
  keyFromRow,
  keyToParams,
  totalsFromRows,
  USAGE_TOTALS_SELECT,
  type UsageTotalsRow,
} from '../rows.js';
import { movesMoney } from '../settlement.js';
import type {
  KeyRecord,
  KeySettings,
  PreviousSecret,
  PurgeOptions,
  PurgeResult,
  Store,
  UsageRecord,
  UsageTotals,
  UsageWindow,
} from '../types.js';
import { PostgresConversations } from './conversations.js';
import { KEY_CHANNEL, KeyChangeListener } from './key-change-listener.js';
import { KeyRowCache } from './key-row-cache.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';
import { PgDb } from './pg-db.js';
import { openPgPool } from './pg-pool.js';
import { inTransaction } from './pg-transaction.js';
import { PostgresAccounts } from './postgres-accounts.js';
import { PostgresAudit } from './postgres-audit.js';
import { PostgresMoney } from './postgres-money.js';
import { PostgresTaskStore } from './postgres-tasks.js';
import { PostgresResponses } from './responses.js';
import { waitForDatabase } from './wait-for-database.js';

// BIGINT columns hold millisecond times; they fit a JS number exactly, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** An arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_316_425_001;

export interface PostgresStoreOptions {
  url: string;
  /** Schema to create and use; default the connection's own search_path. */
  schema?: string | undefined;
  maxConnections?: number;
  /** Longest wait for a connection before a call fails with 1305 (database.pool_timeout_seconds). */
  poolTimeoutMs?: number;
  /** Longest wait for a query's answer (database.query_timeout_seconds). */
  queryTimeoutMs?: number;
  /** How long one call retries a transient fault (database.retry_ms). */
  retryMs?: number;
  /** How long start-up waits for the database to accept connections (database.connect_timeout_seconds). */
  startupWaitMs?: number;
  /** Key rows are read again at least this often, notification or not (database.key_cache_ttl_seconds). */
  keyCacheTtlMs?: number;
  /** How long a cached key row still serves while the database cannot be reached (database.key_cache_stale_seconds). */
  keyCacheStaleMs?: number;
  /** How often the LISTEN connection is checked with a query (database.listen_check_seconds). */
  listenCheckMs?: number;
  /** An idle pooled connection failed (e.g. the server restarted); the pool replaces it. */
  onIdleError?: (err: Error) => void;
  /** `billing.time_zone`: the calendar of per-day and per-month spend. */
  timeZone?: string | undefined;
  /** `billing.require_balance`: a call settled late is billed only as far as the balance covers it. */
  requireBalance?: boolean | undefined;
}

/**
 * The store shared by several server processes. Key rows are cached per process; every statement
 * that changes a row of api_keys must also `pg_notify(KEY_CHANNEL, '<schema>:<id>')` (see
 * revokeKey) so that the other processes drop their copy.
 */
export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  readonly db: PgDb;
  readonly status: DependencyStatus;
  private readonly keyCache: KeyRowCache;
  private listener: KeyChangeListener | undefined;
  /** The schema in use, named in key-change notifications so other schemas' changes are ignored. */
  private schema = '';
  readonly accounts: PostgresAccounts;
  readonly tasks: PostgresTaskStore;
  readonly conversations: PostgresConversations;
  readonly audit: PostgresAudit;
  readonly money: PostgresMoney;
  readonly responses: PostgresResponses;

  private constructor(db: PgDb, keyCache: KeyRowCache, calendar: Calendar, requireBalance: boolean) {
    this.db = db;
    this.pool = db.pool;
    this.status = db.status;
    this.keyCache = keyCache;
    this.accounts = new PostgresAccounts(db);
    this.tasks = new PostgresTaskStore(db);
    this.conversations = new PostgresConversations(db);
    this.audit = new PostgresAudit(db);
    this.money = new PostgresMoney(db, calendar, requireBalance);
    this.responses = new PostgresResponses(db);
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const { schema } = options;
    const status = new DependencyStatus('database', 'postgres');
    const poolTimeoutMs = options.poolTimeoutMs ?? 5000;
    const pool = openPgPool({
      url: options.url,
      schema,
      max: options.maxConnections ?? 10,
      connectTimeoutMs: poolTimeoutMs,
      queryTimeoutMs: options.queryTimeoutMs,
      applicationName: 'gen-platform',
      status,
      onError: options.onIdleError ?? ((err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`)),
    });
    const db = new PgDb(pool, status, { budgetMs: options.retryMs ?? 1000, firstDelayMs: 50 });
    const cache = new KeyRowCache({
      ttlMs: options.keyCacheTtlMs ?? 30_000,
      staleMs: options.keyCacheStaleMs ?? 300_000,
      databaseDown: () => status.current.state === 'down',
    });
    const store = new PostgresStore(db, cache, new Calendar(options.timeZone ?? 'UTC'), options.requireBalance ?? true);
    try {
      await waitForDatabase(pool, options.startupWaitMs ?? 30_000, (cause) =>
        process.emitWarning(`Waiting for PostgreSQL (${cause}); retrying`),
      );
      if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await store.migrate();
      const { rows } = await pool.query<{ s: string }>('SELECT current_schema() AS s');
      store.schema = rows[0]?.s ?? '';
      store.listener = new KeyChangeListener(
        {
          connectionString: options.url,
          application_name: `gen-platform keys ${store.schema}`,
          keepAlive: true,
          keepAliveInitialDelayMillis: 10_000,
          connectionTimeoutMillis: poolTimeoutMs,
        },
        store.schema,
        store.keyCache,
        { checkMs: options.listenCheckMs ?? 10_000, status },
      );
      await store.listener.start();
    } catch (err) {
      await pool.end();
      throw err;
    }
    return store;
  }

  /** One round trip, for readiness: resolves when the database answers, else the fault. */
  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  /** Whether the key-change listener is connected (health). */
  get listening(): boolean {
    return this.listener?.connected ?? false;
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
          await client.query('ROLLBACK').catch(() => undefined); // the original error is the one to report
          throw err;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  async createKey(key: KeyRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO api_keys (id, name, secret_hash, secret_encrypted, endpoints, role, limits, created_at, revoked_at, policy, previous_secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      keyToParams(key),
    );
  }

  async createHeldKey(key: KeyRecord, accountId: string, maxKeys: number): Promise<boolean> {
    // One lock per account, held to the end of the transaction: creations for the account from
    // every process count and insert one after another (READ COMMITTED alone would let two count
    // the same free place).
    return inTransaction(
      this.db,
      async (client): Promise<boolean> => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`keys.cap:${accountId}`]);
        if (maxKeys > 0) {
          const { rows } = await client.query<{ held: string }>(
            `SELECT COUNT(*) AS held FROM key_owners o JOIN api_keys k ON k.id = o.key_id
             WHERE o.account_id = $1 AND k.revoked_at IS NULL`,
            [accountId],
          );
          if (Number(rows[0]?.held ?? 0) >= maxKeys) return false;
        }
        await client.query(
          `INSERT INTO api_keys (id, name, secret_hash, secret_encrypted, endpoints, role, limits, created_at, revoked_at, policy, previous_secret)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          keyToParams(key),
        );
        await client.query(
          'INSERT INTO key_owners (key_id, account_id) VALUES ($1, $2) ON CONFLICT (key_id) DO UPDATE SET account_id = EXCLUDED.account_id',
          [key.id, accountId],
        );
        return true;
      },
      { idempotent: false },
    );
  }

  getKey(id: string): Promise<KeyRecord | undefined> {
    return this.keyCache.get(id, (key) => this.readKey(key));
  }

  private async readKey(id: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.db.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] && keyFromRow(rows[0]);
  }

  async listKeys(): Promise<KeyRecord[]> {
    const { rows } = await this.db.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    return rows.map(keyFromRow);
  }

  async revokeKey(id: string, at: number): Promise<boolean> {
    // Every change to a key row notifies in its own statement, so the other processes' caches
    // hear of it when it commits (and only then).
    const result = await this.db.query(
      `WITH changed AS (UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2 RETURNING id)
       SELECT pg_notify($3, $4 || ':' || id) FROM changed`,
      [at, id, KEY_CHANNEL, this.schema],
      { idempotent: true }, // COALESCE keeps the first time; a second notification is harmless
    );
    this.keyCache.forget(id);
    return (result.rowCount ?? 0) > 0;
  }

  async updateKey(id: string, settings: KeySettings): Promise<boolean> {
    const [, name, , , endpoints, , limits, , , policy] = keyToParams({ ...EMPTY_KEY, ...settings });
    return this.changeKey(id, 'name = $4, endpoints = $5, limits = $6, policy = $7', [name, endpoints, limits, policy]);
  }

  async rollKey(
    id: string,
    secret: { secretHash: string; secretEncrypted: string },
    previous: PreviousSecret | undefined,
  ): Promise<boolean> {
    const prior = previous === undefined ? null : JSON.stringify(previous);
    return this.changeKey(id, 'secret_hash = $4, secret_encrypted = $5, previous_secret = $6', [
      secret.secretHash,
      secret.secretEncrypted,
      prior,
    ]);
  }

  /** One UPDATE of a key row that notifies the other processes' caches when it commits. */
  private async changeKey(id: string, set: string, values: unknown[]): Promise<boolean> {
    const result = await this.db.query(
      `WITH changed AS (UPDATE api_keys SET ${set} WHERE id = $1 RETURNING id)
       SELECT pg_notify($2, $3 || ':' || id) FROM changed`,
      [id, KEY_CHANNEL, this.schema, ...values],
    );
    this.keyCache.forget(id);
    return (result.rowCount ?? 0) > 0;
  }

  async recordUsage(records: UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    // With a journal id on every record, the unique column makes a second run write nothing more.
    const idempotent = records.every((r) => r.journalId !== undefined);
    if (!records.some(movesMoney)) {
      await this.db.query(USAGE_INSERT, usageColumns(records), { idempotent });
      return;
    }
    // Records that move money settle it in the same transaction, only those this run wrote.
    await inTransaction(
      this.db,
      async (client) => {
        const { rows } = await client.query<{ journal_id: string | null }>(
          `${USAGE_INSERT} RETURNING journal_id`,
          usageColumns(records),
        );
        const inserted = new Set(rows.map((r) => r.journal_id));
        const written = records.filter((r) => r.journalId === undefined || inserted.has(r.journalId));
        await this.money.settleIn(client, written);
      },
      { idempotent },
    );
  }

  async usageTotals(keyId: string, since = 0): Promise<UsageTotals> {
    const { rows } = await this.db.query<UsageTotalsRow>(
      `${USAGE_TOTALS_SELECT} WHERE key_id = $1 AND created_at >= $2 GROUP BY operation`,
      [keyId, since],
    );
    return totalsFromRows(rows);
  }

  async usageWindow(keyId: string, since: number): Promise<UsageWindow> {
    const { rows } = await this.db.query<{ count: string; oldest: number | null }>(
      'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM usage_records WHERE key_id = $1 AND created_at >= $2',
      [keyId, since],
    );
    return { count: Number(rows[0]?.count ?? 0), oldest: rows[0]?.oldest ?? undefined };
  }

  async claimRequestId(keyId: string, requestId: string, at: number): Promise<boolean> {
    const result = await this.db.query(
      'INSERT INTO request_ids (key_id, request_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [keyId, requestId, at],
    );
    return result.rowCount === 1;
  }

  async getCache(key: string, now: number): Promise<string | undefined> {
    const { rows } = await this.db.query<{ value: string }>(
      'SELECT value FROM cache_entries WHERE key = $1 AND expires_at > $2',
      [key, now],
    );
    return rows[0]?.value;
  }

  async setCache(key: string, value: string, expiresAt: number): Promise<void> {
    await this.db.query(
      `INSERT INTO cache_entries (key, value, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
      [key, value, expiresAt],
      { idempotent: true },
    );
  }

  async purge(options: PurgeOptions): Promise<PurgeResult> {
    const once = { idempotent: true }; // deletes by age and size: running one twice deletes nothing more
    const expired = await this.db.query('DELETE FROM cache_entries WHERE expires_at <= $1', [options.now], once);
    // Keeps the entries that expire last while their running total fits the cap.
    const overCap = await this.db.query(
      `DELETE FROM cache_entries WHERE key IN (
         SELECT key FROM (
           SELECT key, SUM(octet_length(value)) OVER (ORDER BY expires_at DESC, key) AS kept FROM cache_entries
         ) AS running WHERE kept > $1
       )`,
      [options.cacheMaxBytes],
      once,
    );
    const ids = await this.db.query('DELETE FROM request_ids WHERE created_at < $1', [options.requestIdsBefore], once);
    return { cacheEntries: (expired.rowCount ?? 0) + (overCap.rowCount ?? 0), requestIds: ids.rowCount ?? 0 };
  }

  async close(): Promise<void> {
    await this.listener?.close();
    await this.pool.end();
  }
}

const USAGE_INSERT = `INSERT INTO usage_records (key_id, operation, model, request_id, prompt_tokens, completion_tokens, status, latency_ms, created_at, journal_id, cost, cached_tokens)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::float8[], $9::bigint[], $10::text[], $11::bigint[], $12::int[])
  ON CONFLICT (journal_id) DO NOTHING`;

function usageColumns(records: UsageRecord[]): unknown[] {
  const column = <T>(pick: (r: UsageRecord) => T) => records.map(pick);
  return [
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
    column((r) => r.cost ?? 0),
    column((r) => r.cachedTokens ?? 0),
  ];
}
