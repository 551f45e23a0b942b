import path from 'node:path';
import type { Config } from '../config/schema.js';
import { DependencyStatus } from '../stores/dependency-status.js';
import { openPgPool } from '../stores/postgres/pg-pool.js';
import { waitForDatabase } from '../stores/postgres/wait-for-database.js';
import { PostgresFtsIndex } from './postgres-fts/index.js';
import { SqliteFtsIndex } from './sqlite-fts/index.js';
import type { SearchIndex } from './types.js';

/** The platform's own index: beside the store, in PostgreSQL when the store is there, else `<data_dir>/search.db`. */
export async function openSearchIndex(config: Config): Promise<SearchIndex> {
  const titleWeight = config.search.title_weight;
  const { url, schema } = config.database;
  if (!url) return new SqliteFtsIndex(path.join(config.data_dir, 'search.db'), { titleWeight });
  // The same guards as the store's pool: a dropped connection must not end the process.
  const pool = openPgPool({
    url,
    schema,
    max: 5,
    connectTimeoutMs: config.database.pool_timeout_seconds * 1000,
    applicationName: 'gen-platform search',
    status: new DependencyStatus('search database'),
    onError: (err) => process.emitWarning(`PostgreSQL connection of the search index lost: ${err.message}`),
  });
  try {
    await waitForDatabase(pool, config.database.connect_timeout_seconds * 1000);
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    return await PostgresFtsIndex.create(pool, { titleWeight, endPoolOnClose: true });
  } catch (err) {
    await pool.end();
    throw err;
  }
}
