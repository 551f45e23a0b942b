import path from 'node:path';
import type { Config } from '../config/schema.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/** The configured store: PostgreSQL when `database.url` is set, else SQLite under the data dir. */
export async function openStore(config: Config): Promise<Store> {
  const db = config.database;
  if (db.url) {
    return PostgresStore.open({
      url: db.url,
      schema: db.schema,
      poolTimeoutMs: db.pool_timeout_seconds * 1000,
      queryTimeoutMs: db.query_timeout_seconds * 1000,
      retryMs: db.retry_ms,
      startupWaitMs: db.connect_timeout_seconds * 1000,
      keyCacheTtlMs: db.key_cache_ttl_seconds * 1000,
      keyCacheStaleMs: db.key_cache_stale_seconds * 1000,
      listenCheckMs: db.listen_check_seconds * 1000,
      timeZone: config.billing.time_zone,
      requireBalance: config.billing.require_balance,
    });
  }
  return new SqliteStore(path.join(config.data_dir, 'gen-platform.db'), {
    timeZone: config.billing.time_zone,
    requireBalance: config.billing.require_balance,
  });
}
