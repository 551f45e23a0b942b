import path from 'node:path';
import type { Config } from '../config/schema.js';
import { PostgresStore } from './postgres/postgres-store.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

/** The configured store: PostgreSQL when `database.url` is set, else SQLite under the data dir. */
export async function openStore(config: Config): Promise<Store> {
  if (config.database.url) return PostgresStore.open({ url: config.database.url, schema: config.database.schema });
  return new SqliteStore(path.join(config.data_dir, 'gen-platform.db'));
}
