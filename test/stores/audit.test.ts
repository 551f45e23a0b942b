import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import type { Store } from '../../src/stores/types.js';
import { runAuditStoreContract } from '../contracts/audit-store.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runAuditStoreContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'audit-'));
  const file = path.join(dir, 'store.db');
  const first = new SqliteStore(file);
  const stores: Store[] = [first];
  return {
    audit: first.audit,
    async tamper() {
      first.db.prepare("UPDATE audit_log SET actor = 'someone else'").run();
    },
    async reopen() {
      const store = new SqliteStore(file);
      stores.push(store);
      return store.audit;
    },
    async close() {
      for (const s of stores) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

runAuditStoreContract('postgres', async () => {
  const { schema, drop } = await freshSchema();
  const first = await PostgresStore.open({ url: DATABASE_URL, schema });
  const stores: Store[] = [first];
  return {
    audit: first.audit,
    async tamper() {
      await first.pool.query("UPDATE audit_log SET actor = 'someone else'");
    },
    async reopen() {
      const store = await PostgresStore.open({ url: DATABASE_URL, schema });
      stores.push(store);
      return store.audit;
    },
    async close() {
      for (const s of stores) await s.close();
      await drop();
    },
  };
});
