import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import { SqliteDatabase as BetterSqlite3 } from '../../src/util/sqlite/driver.js';
import { runSearchIndexContract } from '../contracts/search-index.contract.js';

runSearchIndexContract('sqlite-fts (file)', async (options) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-fts-'));
  const index = new SqliteFtsIndex(join(dir, 'index.db'), options);
  return {
    index,
    close: async () => {
      await index.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('sqlite-fts on a shared database', () => {
  it('creates its tables idempotently and leaves a shared database open', async () => {
    const db = new BetterSqlite3(':memory:');
    db.exec('CREATE TABLE store_keys (id TEXT PRIMARY KEY)'); // the store's own table
    const first = new SqliteFtsIndex(db);
    await first.upsert([{ url: 'https://x.example/', title: 'Hello', content: 'World' }]);
    await first.close();
    expect(db.open).toBe(true);
    const second = new SqliteFtsIndex(db);
    expect(await second.stats()).toEqual([{ collection: 'web', documents: 1 }]);
    const version = db.prepare("SELECT value FROM search_meta WHERE key = 'schema_version'").get();
    expect(version).toEqual({ value: '5' });
    db.close();
  });
});

describe('sqlite-fts upgrades and settings', () => {
  it('moves a version 1 index over, documents and ids kept', async () => {
    const db = new BetterSqlite3(':memory:');
    db.exec(`
      CREATE TABLE search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO search_meta VALUES ('schema_version', '1');
      CREATE TABLE search_documents (
        id INTEGER PRIMARY KEY, collection TEXT NOT NULL, host TEXT NOT NULL, published_ms INTEGER,
        url TEXT NOT NULL, site TEXT, published TEXT, title TEXT NOT NULL, content TEXT NOT NULL,
        UNIQUE (collection, url));
      CREATE INDEX search_documents_host ON search_documents (collection, host);
      CREATE VIRTUAL TABLE search_fts USING fts5 (title, content, content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2');
      INSERT INTO search_documents VALUES
        (7, 'web', 'a.example', 1700000000000, 'https://a.example/x', 'A', '2023-11-14T22:13:20.000Z',
         'Tidal turbines', 'Turbines on the seabed feed power ashore.'),
        (9, 'kb', 'b.example', NULL, 'https://b.example/y', NULL, NULL, 'Sourdough', 'Feed the starter.');
    `);
    const index = new SqliteFtsIndex(db);
    expect(await index.stats()).toEqual([
      { collection: 'kb', documents: 1 },
      { collection: 'web', documents: 1 },
    ]);
    const [hit] = await index.query({ text: 'turbine power', count: 5 });
    expect(hit).toMatchObject({ url: 'https://a.example/x', site: 'A', published: '2023-11-14T22:13:20.000Z' });
    expect(await index.query({ text: 'starter', count: 5, collections: ['kb'] })).toHaveLength(1);
    // Collections from before owners were kept are the admin's: no owner.
    expect(await index.ownerOf('kb')).toBeUndefined();
    expect(db.prepare('SELECT id FROM search_documents ORDER BY id').pluck().all()).toEqual([7, 9]);
    await index.upsert([{ url: 'https://a.example/z', title: 'Turbine blades', content: 'Blades.' }]);
    expect(await index.query({ text: 'turbine', count: 5 })).toHaveLength(2);
    db.close();
  });

  it('weighs every document again when the title weight changes', async () => {
    const db = new BetterSqlite3(':memory:');
    const docs = [
      { url: 'https://a.example/title', title: 'Kayak', content: 'A boat for one.' },
      { url: 'https://a.example/body', title: 'Boats', content: 'kayak kayak kayak kayak, and a canoe.' },
    ];
    await new SqliteFtsIndex(db, { titleWeight: 0.2 }).upsert(docs);
    const light = await new SqliteFtsIndex(db, { titleWeight: 0.2 }).query({ text: 'kayak', count: 2 });
    expect(light.map((h) => h.url)).toEqual(['https://a.example/body', 'https://a.example/title']);
    const heavy = await new SqliteFtsIndex(db, { titleWeight: 20 }).query({ text: 'kayak', count: 2 });
    expect(heavy.map((h) => h.url)).toEqual(['https://a.example/title', 'https://a.example/body']);
    db.close();
  });
});
