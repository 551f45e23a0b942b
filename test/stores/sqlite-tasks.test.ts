import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { runTaskStoreContract } from '../contracts/task-store.contract.js';

runTaskStoreContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tasks-'));
  const file = path.join(dir, 'gen-platform.db');
  const store = new SqliteStore(file);
  const other = new SqliteStore(file);
  return {
    tasks: store.tasks,
    other: other.tasks,
    own: (keyId, accountId) => store.accounts.setKeyOwner(keyId, accountId),
    async close() {
      await other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
