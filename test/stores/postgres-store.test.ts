import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { runStoreContract } from '../contracts/store.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runStoreContract('postgres', async () => {
  const { schema, drop } = await freshSchema();
  const store = await PostgresStore.open({ url: DATABASE_URL, schema });
  return {
    store,
    reopen: () => PostgresStore.open({ url: DATABASE_URL, schema }),
    async close() {
      await store.close();
      await drop();
    },
  };
});
