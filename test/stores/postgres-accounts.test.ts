import { PostgresStore } from '../../src/stores/postgres/postgres-store.js';
import { runAccountStoreContract } from '../contracts/account-store.contract.js';
import { DATABASE_URL, freshSchema } from '../helpers/postgres.js';

runAccountStoreContract('postgres', async () => {
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
