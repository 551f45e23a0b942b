import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { runMoneyStoreContract } from '../contracts/money-store.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runMoneyStoreContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'money-'));
  const store = new SqliteStore(path.join(dir, 'gen-platform.db'));
  return {
    store,
    async close() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runMoneyStoreContract('postgres', async () => {
  const { schema, drop } = await freshSchema();
  const store = await PostgresStore.open({ url: DATABASE_URL, schema });
  return {
    store,
    async close() {
      await store.close();
      await drop();
    },
  };
});
