import path from 'node:path';
import pg from 'pg';
import type { Config } from '../config/schema.js';
import { PostgresFtsIndex } from './postgres-fts/index.js';
import { SqliteFtsIndex } from './sqlite-fts/index.js';
import type { SearchIndex } from './types.js';

/** The platform's own index: beside the store, in PostgreSQL when the store is there, else `<data_dir>/search.db`. */
export async function openSearchIndex(config: Config): Promise<SearchIndex> {
  const titleWeight = config.search.title_weight;
  const { url, schema } = config.database;
  if (!url) return new SqliteFtsIndex(path.join(config.data_dir, 'search.db'), { titleWeight });
  const pool = new pg.Pool({
    connectionString: url,
    max: 5,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  try {
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    return await PostgresFtsIndex.create(pool, { titleWeight, endPoolOnClose: true });
  } catch (err) {
    await pool.end();
    throw err;
  }
}
