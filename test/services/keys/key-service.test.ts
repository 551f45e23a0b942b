import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyService } from '../../../src/services/keys/key-service.js';
import { SecretBox } from '../../../src/services/keys/secret-box.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import type { KeyRecord, Store } from '../../../src/stores/types.js';

/**
 * A token is hashed once per key row (the row object the store hands out): these check that the
 * shortcut never accepts what a full check would refuse.
 */
describe('KeyService: tokens already checked', () => {
  let dir: string;
  let store: SqliteStore;
  let keys: KeyService;
  const box = new SecretBox(randomBytes(32));

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gen-platform-keys-'));
    store = new SqliteStore(path.join(dir, 'keys.db'));
    keys = new KeyService({ store, box });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (err: { code?: number }) => err.code,
    );

  it('accepts the same token again, and refuses another secret for the same key', async () => {
    const { key, record } = await keys.create({ name: 'a' });
    expect((await keys.authenticate(`Bearer ${key}`)).id).toBe(record.id);
    expect((await keys.authenticate(`Bearer ${key}`)).id).toBe(record.id);
    const [id, secret] = key.split('.') as [string, string];
    const wrong = `${id}.${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect(await refusal(keys.authenticate(`Bearer ${wrong}`))).toBe(1002);
    expect((await keys.authenticate(`Bearer ${key}`)).id).toBe(record.id);
  });

  it('refuses a token it accepted once its key is revoked here', async () => {
    const { key, record } = await keys.create({ name: 'a' });
    await keys.authenticate(`Bearer ${key}`);
    await keys.revoke(record.id);
    expect(await refusal(keys.authenticate(`Bearer ${key}`))).toBe(1004);
  });

  it('refuses a token it accepted once another process has revoked its key (1 ms later)', async () => {
    const { key, record } = await keys.create({ name: 'a' });
    await keys.authenticate(`Bearer ${key}`);
    const other = new SqliteStore(path.join(dir, 'keys.db'));
    try {
      await other.revokeKey(record.id, Date.now());
    } finally {
      await other.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
    expect(await refusal(keys.authenticate(`Bearer ${key}`))).toBe(1004);
  });

  it('checks the secret again when the store hands out a new row for the key', async () => {
    const { key, record } = await keys.create({ name: 'a' });
    const other = await keys.create({ name: 'b' });
    // A store whose row for the key now carries another secret's hash (a changed row).
    let row: KeyRecord = record;
    const swapping = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'getKey') return async (id: string) => (id === record.id ? row : target.getKey(id));
        return Reflect.get(target, prop, receiver);
      },
    }) as Store;
    const service = new KeyService({ store: swapping, box });
    expect((await service.authenticate(`Bearer ${key}`)).id).toBe(record.id);
    row = { ...record, secretHash: other.record.secretHash };
    expect(await refusal(service.authenticate(`Bearer ${key}`))).toBe(1002);
  });
});
