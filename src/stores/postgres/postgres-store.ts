import pg from 'pg';
import {
  type KeyRow,
  keyFromRow,
  keyToParams,
  totalsFromRows,
  USAGE_TOTALS_SELECT,
  type UsageTotalsRow,
} from '../rows.js';
import type { KeyRecord, Store, UsageRecord, UsageTotals, UsageWindow } from '../types.js';
import { PostgresConversations } from './conversations.js';
import { POSTGRES_MIGRATIONS } from './migrations.js';

// BIGINT columns hold millisecond times; they fit a JS number exactly, so read them as numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** An arbitrary constant: the advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_316_425_001;

export interface PostgresStoreOptions {
  url: string;
  /** Schema to create and use; default the connection's own search_path. */
  schema?: string | undefined;
  maxConnections?: number;
}

/** The store shared by several server processes. */
export class PostgresStore implements Store {
  readonly pool: pg.Pool;
  readonly conversations: PostgresConversations;

  private constructor(pool: pg.Pool) {
    this.pool = pool;
    this.conversations = new PostgresConversations(pool);
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const { schema } = options;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    const store = new PostgresStore(pool);
    try {
      if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await store.migrate();
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
      const { rows } = await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations');
      for (const migration of POSTGRES_MIGRATIONS) {
        if (migration.version <= (rows[0]?.v ?? 0)) continue;
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

  async getKey(id: string): Promise<KeyRecord | undefined> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] && keyFromRow(rows[0]);
  }

  async listKeys(): Promise<KeyRecord[]> {
    const { rows } = await this.pool.query<KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id');
    return rows.map(keyFromRow);
  }

  async revokeKey(id: string, at: number): Promise<boolean> {
    const result = await this.pool.query('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $1) WHERE id = $2', [
      at,
      id,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async recordUsage(records: UsageRecord[]): Promise<void> {
    if (records.length === 0) return;
    const column = <T>(pick: (r: UsageRecord) => T) => records.map(pick);
    await this.pool.query(
      `INSERT INTO usage_records (key_id, operation, model, request_id, prompt_tokens, completion_tokens, status, latency_ms, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::float8[], $9::bigint[])`,
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

  async close(): Promise<void> {
    await this.pool.end();
  }
}
