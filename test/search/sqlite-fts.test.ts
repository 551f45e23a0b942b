import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import { runSearchIndexContract } from '../contracts/search-index.contract.js';

runSearchIndexContract('sqlite-fts (file)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'search-fts-'));
  const index = new SqliteFtsIndex(join(dir, 'index.db'));
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
    expect(version).toEqual({ value: '1' });
    db.close();
  });
});
