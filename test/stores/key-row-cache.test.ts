import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/stores/faults.js';
import { KeyRowCache } from '../../src/stores/postgres/key-row-cache.js';
import type { KeyRecord } from '../../src/stores/types.js';

const row = (name = 'k'): KeyRecord => ({
  id: 'a'.repeat(32),
  name,
  secretHash: 'h',
  secretEncrypted: 'e',
  endpoints: ['general'],
  role: 'user',
  limits: undefined,
  createdAt: 1,
  revokedAt: undefined,
});
const down = () => Promise.reject(new StoreUnavailableError({ kind: 'unavailable', cause: 'c', notRun: true }));

describe('KeyRowCache', () => {
  it('serves a row within its TTL while live, and reads it again after', async () => {
    let now = 0;
    const cache = new KeyRowCache({ ttlMs: 100, staleMs: 1000, now: () => now });
    cache.setLive(true);
    let reads = 0;
    const load = async () => {
      reads++;
      return row(`r${reads}`);
    };
    const first = await cache.get('a', load);
    expect(await cache.get('a', load)).toBe(first);
    now = 150;
    expect((await cache.get('a', load))?.name).toBe('r2');
    expect(reads).toBe(2);
  });

  it('keeps the same object when a read finds the row unchanged (the key service skips hashing again)', async () => {
    let now = 0;
    const cache = new KeyRowCache({ ttlMs: 100, staleMs: 1000, now: () => now });
    cache.setLive(true);
    const first = await cache.get('a', async () => row());
    now = 200;
    expect(await cache.get('a', async () => row())).toBe(first);
  });

  it('serves the last row read, up to staleMs old, while the database cannot be reached', async () => {
    let now = 0;
    const cache = new KeyRowCache({ ttlMs: 100, staleMs: 1000, now: () => now });
    const first = await cache.get('a', async () => row());
    now = 500;
    expect(await cache.get('a', down)).toBe(first);
    now = 1500;
    await expect(cache.get('a', down)).rejects.toThrow(StoreUnavailableError);
    // Any other error is not hidden.
    await expect(cache.get('a', () => Promise.reject(new Error('bug')))).rejects.toThrow('bug');
  });

  it('does not try the database while it is known down, within staleMs', async () => {
    let isDown = false;
    const cache = new KeyRowCache({ ttlMs: 100, staleMs: 1000, databaseDown: () => isDown });
    const first = await cache.get('a', async () => row());
    isDown = true;
    expect(await cache.get('a', () => Promise.reject(new Error('must not be called')))).toBe(first);
  });

  it('does not remember unknown ids, and forgets a changed row', async () => {
    const cache = new KeyRowCache({ ttlMs: 10_000, staleMs: 10_000 });
    cache.setLive(true);
    expect(await cache.get('x', async () => undefined)).toBeUndefined();
    await expect(cache.get('x', down)).rejects.toThrow(StoreUnavailableError);
    await cache.get('a', async () => row('old'));
    cache.forget('a');
    expect((await cache.get('a', async () => row('new')))?.name).toBe('new');
  });
});
