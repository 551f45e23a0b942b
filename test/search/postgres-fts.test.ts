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

runSearchIndexContract('postgres-fts', async (options) => {
  const { pool, drop } = await freshSchemaPool();
  const index = await PostgresFtsIndex.create(pool, options);
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
      expect(res.rows).toEqual([{ value: '6' }]);
    } finally {
      await drop();
    }
  });
});

describe('postgres-fts upgrade', () => {
  it('moves a version 1 index over, documents and ids kept', async () => {
    const { pool, drop } = await freshSchemaPool();
    try {
      await pool.query(`
        CREATE TABLE search_meta (key text PRIMARY KEY, value text NOT NULL);
        INSERT INTO search_meta VALUES ('schema_version', '1');
        CREATE TABLE search_documents (
          id bigserial PRIMARY KEY, collection text NOT NULL, url text NOT NULL, title text NOT NULL,
          content text NOT NULL, site text, host text NOT NULL, published text, published_ms bigint,
          tsv tsvector NOT NULL, UNIQUE (collection, url));
        CREATE INDEX search_documents_tsv ON search_documents USING gin (tsv);
        CREATE INDEX search_documents_host ON search_documents (collection, host);
        INSERT INTO search_documents (id, collection, url, title, content, site, host, published, published_ms, tsv)
        VALUES (7, 'web', 'https://a.example/x', 'Tidal turbines', 'Turbines on the seabed feed power ashore.',
                'A', 'a.example', '2023-11-14T22:13:20.000Z', 1700000000000, to_tsvector('english', 'tidal')),
               (9, 'kb', 'https://b.example/y', 'Sourdough', 'Feed the starter.', NULL, 'b.example', NULL, NULL,
                to_tsvector('english', 'sourdough'));
        SELECT setval('search_documents_id_seq', 9);
      `);
      const index = await PostgresFtsIndex.create(pool);
      expect(await index.stats()).toEqual([
        { collection: 'kb', documents: 1 },
        { collection: 'web', documents: 1 },
      ]);
      const [hit] = await index.query({ text: 'turbine power', count: 5 });
      expect(hit).toMatchObject({ url: 'https://a.example/x', site: 'A', published: '2023-11-14T22:13:20.000Z' });
      expect(await index.query({ text: 'starter', count: 5, collections: ['kb'] })).toHaveLength(1);
      await index.upsert([{ url: 'https://a.example/z', title: 'Turbine blades', content: 'Blades.' }]);
      expect(await index.query({ text: 'turbine', count: 5 })).toHaveLength(2);
    } finally {
      await drop();
    }
  });
});

describe('postgres-fts upgrade from version 4', () => {
  it("rewrites each document's tsvector of tokens as text, answers unchanged", async () => {
    const { pool, drop } = await freshSchemaPool();
    try {
      const before = await PostgresFtsIndex.create(pool);
      await before.upsert([
        { url: 'https://a.example/x', title: 'Tidal turbines', content: 'Turbines on the seabed feed power ashore.' },
        { url: 'https://b.example/y', title: 'Wind power', content: 'Turbines on hills feed power to the grid.' },
        { url: 'https://c.example/z', title: 'Sourdough', content: 'Feed the starter twice a day.' },
      ]);
      const queries = ['turbine power', 'feed', 'seabed', 'starter'];
      const answers = await Promise.all(queries.map((text) => before.query({ text, count: 5 })));
      // Version 4's shape: the tokens as a tsvector without positions, stored out of line.
      await pool.query(`
        ALTER TABLE search_terms RENAME COLUMN tokens TO tiers;
        ALTER TABLE search_terms ALTER COLUMN tiers TYPE tsvector USING array_to_tsvector(string_to_array(tiers, ' '));
        ALTER TABLE search_terms ALTER COLUMN tiers SET STORAGE EXTERNAL;
        ALTER TABLE search_terms SET (toast_tuple_target = 128);
        DROP TABLE search_collection_owners;
        UPDATE search_meta SET value = '4' WHERE key = 'schema_version';
      `);
      const after = await PostgresFtsIndex.create(pool);
      const column = await pool.query(
        "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'search_terms' AND column_name = 'tokens'",
      );
      expect(column.rows).toEqual([{ data_type: 'text' }]);
      // Collections from before owners were kept are the admin's: no owner.
      expect(await after.ownerOf('web')).toBeUndefined();
      for (const [i, text] of queries.entries()) {
        expect(await after.query({ text, count: 5 })).toEqual(answers[i]);
      }
      await after.upsert([{ url: 'https://a.example/x', title: 'Tidal lagoons', content: 'A lagoon wall.' }]);
      expect(await after.query({ text: 'seabed', count: 5 })).toEqual([]);
      expect(await after.query({ text: 'lagoon', count: 5 })).toHaveLength(1);
    } finally {
      await drop();
    }
  });
});
