import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SqliteFtsIndex } from '../../../src/search/sqlite-fts/index.js';
import { accountOwner, type Caller, mayRead, ownerName } from '../../../src/services/search/collection-access.js';
import { SqliteDatabase } from '../../../src/util/sqlite/driver.js';

const key = (keyId: string, accountId?: string): Caller => ({ keyId, accountId, admin: false });

describe('who may read a collection', () => {
  let db: InstanceType<typeof SqliteDatabase>;
  let index: SqliteFtsIndex;
  beforeEach(async () => {
    db = new SqliteDatabase(':memory:');
    index = new SqliteFtsIndex(db);
    await index.setOwner('a-docs', accountOwner('A'));
    await index.setOwner('k-docs', ownerName(key('k1')));
  });
  afterEach(() => db.close());

  it("an account's keys read its collections; another account's keys do not", async () => {
    expect(await mayRead(index, 'a-docs', key('k2', 'A'))).toBe(true);
    expect(await mayRead(index, 'a-docs', key('k3', 'B'))).toBe(false);
    expect(await mayRead(index, 'a-docs', key('k1'))).toBe(false);
  });

  it('a key without an account reads what was given to it alone', async () => {
    expect(await mayRead(index, 'k-docs', key('k1'))).toBe(true);
    expect(await mayRead(index, 'k-docs', key('k4'))).toBe(false);
    // An account's key named like the key is not it.
    expect(await mayRead(index, 'k-docs', key('k1', 'A'))).toBe(false);
  });

  it("a collection without an owner (made before owners, or by the admin) is the admin key's only", async () => {
    expect(await mayRead(index, 'legacy', key('k1', 'A'))).toBe(false);
    expect(await mayRead(index, 'legacy', key('k1'))).toBe(false);
    expect(await mayRead(index, 'legacy', { keyId: 'adm', accountId: undefined, admin: true })).toBe(true);
    expect(await mayRead(index, 'a-docs', { keyId: 'adm', accountId: undefined, admin: true })).toBe(true);
  });

  it("`web` is everyone's, and work without a caller reads everything", async () => {
    expect(await mayRead(index, 'web', key('k9', 'Z'))).toBe(true);
    expect(await mayRead(index, 'a-docs', undefined)).toBe(true);
  });
});
