import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresFtsIndex } from '../../src/search/postgres-fts/index.js';
import { runSearchEngineContract } from '../contracts/search-engine.contract.js';
import { runSearchIndexContract } from '../contracts/search-index.contract.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A pool whose search_path is a fresh schema, dropped again by the returned cleanup. */
async function freshSchemaPool(): Promise<{ pool: pg.Pool; drop: () => Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 4 });
  return {
    pool,
    drop: async () => {
      await pool.end();
      const c = new pg.Client({ connectionString: DATABASE_URL });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
    },
  };
}

runSearchEngineContract('postgres-fts index', async (corpus) => {
  const { pool, drop } = await freshSchemaPool();
  const index = await PostgresFtsIndex.create(pool);
  await index.upsert(corpus);
  return {
    engine: index,
    close: async () => {
      await index.close();
      await drop();
    },
  };
});

runSearchIndexContract('postgres-fts', async () => {
  const { pool, drop } = await freshSchemaPool();
  const index = await PostgresFtsIndex.create(pool);
  return {
    index,
    close: async () => {
      await index.close();
      await drop();
    },
  };
});

describe('postgres-fts schema', () => {
  it('creates its tables once, concurrently too, in the pool schema', async () => {
    const { pool, drop } = await freshSchemaPool();
    try {
      const [a, b] = await Promise.all([PostgresFtsIndex.create(pool), PostgresFtsIndex.create(pool)]);
      await a.upsert([{ url: 'https://x.example/', title: 'Hello', content: 'World\u0000!' }]);
      expect(await b.stats()).toEqual([{ collection: 'web', documents: 1 }]);
      const res = await pool.query("SELECT value FROM search_meta WHERE key = 'schema_version'");
      expect(res.rows).toEqual([{ value: '1' }]);
    } finally {
      await drop();
    }
  });
});
