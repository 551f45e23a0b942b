import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import type { Store } from '../../src/stores/types.js';
import { runConversationsContract } from '../contracts/conversations.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runConversationsContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'conversations-'));
  const file = path.join(dir, 'store.db');
  const stores: Store[] = [new SqliteStore(file)];
  return {
    conversations: stores[0]!.conversations,
    async reopen() {
      const store = new SqliteStore(file);
      stores.push(store);
      return store.conversations;
    },
    async close() {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runConversationsContract('postgres', async () => {
  const { schema, drop } = await freshSchema();
  const stores: Store[] = [await PostgresStore.open({ url: DATABASE_URL, schema })];
  return {
    conversations: stores[0]!.conversations,
    async reopen() {
      const store = await PostgresStore.open({ url: DATABASE_URL, schema });
      stores.push(store);
      return store.conversations;
    },
    async close() {
      for (const s of stores) await s.close();
      await drop();
    },
  };
});
