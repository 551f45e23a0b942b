import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { runTaskStoreContract } from '../contracts/task-store.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runTaskStoreContract('postgres', async () => {
  const { schema, drop } = await freshSchema();
  const store = await PostgresStore.open({ url: DATABASE_URL, schema });
  const other = await PostgresStore.open({ url: DATABASE_URL, schema });
  return {
    tasks: store.tasks,
    other: other.tasks,
    own: (keyId, accountId) => store.accounts.setKeyOwner(keyId, accountId),
    async close() {
      await other.close();
      await store.close();
      await drop();
    },
  };
});
