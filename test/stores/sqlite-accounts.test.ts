import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { runAccountStoreContract } from '../contracts/account-store.contract.js';

runAccountStoreContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'accounts-'));
  const store = new SqliteStore(path.join(dir, 'gen-platform.db'));
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
