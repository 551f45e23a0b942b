import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import type { Store } from '../../src/stores/types.js';
import { runResponseStoreContract } from '../contracts/response-store.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runResponseStoreContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'responses-'));
  const file = path.join(dir, 'store.db');
  const stores: Store[] = [new SqliteStore(file)];
  return {
    responses: stores[0]!.responses,
    async reopen() {
      const store = new SqliteStore(file);
      stores.push(store);
      return store.responses;
    },
    async close() {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runResponseStoreContract('postgres', async () => {
  const { schema, drop } = await freshSchema();
  const stores: Store[] = [await PostgresStore.open({ url: DATABASE_URL, schema })];
  return {
    responses: stores[0]!.responses,
    async reopen() {
      const store = await PostgresStore.open({ url: DATABASE_URL, schema });
      stores.push(store);
      return store.responses;
    },
    async close() {
      for (const s of stores) await s.close();
      await drop();
    },
  };
});
