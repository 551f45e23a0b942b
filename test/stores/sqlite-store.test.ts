import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { runStoreContract } from '../contracts/store.contract.js';

runStoreContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'store-'));
  const file = path.join(dir, 'nested', 'gen-platform.db');
  const store = new SqliteStore(file);
  return {
    store,
    reopen: async () => new SqliteStore(file),
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
