import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadServerKey } from '../../src/services/keys/secret-box.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { openSqliteFile } from '../../src/util/sqlite/driver.js';

const mode = (file: string) => statSync(file).mode & 0o777;

describe('what the server writes in its data directory is private', () => {
  it('the store, its journals, the search database, the server key and the folder', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'gp-private-')), 'data');
    const store = new SqliteStore(path.join(dir, 'gen-platform.db'));
    await store.setCache('k', 'v', Date.now() + 60_000);
    const search = openSqliteFile(path.join(dir, 'search.db'));
    search.exec('CREATE TABLE t (v)');
    loadServerKey(undefined, dir);
    for (const name of ['gen-platform.db', 'gen-platform.db-wal', 'gen-platform.db-shm', 'search.db', 'server.key'])
      expect([name, mode(path.join(dir, name))]).toEqual([name, 0o600]);
    expect(mode(dir)).toBe(0o700);
    search.close();
    await store.close();
  });

  it('tightens the files of an install made before (readable by everyone)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gp-private-'));
    const file = path.join(dir, 'gen-platform.db');
    writeFileSync(file, '', { mode: 0o644 });
    writeFileSync(path.join(dir, 'server.key'), `${'ab'.repeat(32)}\n`, { mode: 0o644 });
    const store = new SqliteStore(file);
    loadServerKey(undefined, dir);
    expect(mode(file)).toBe(0o600);
    expect(mode(path.join(dir, 'server.key'))).toBe(0o600);
    await store.close();
  });
});
