import { describe, expect, it } from 'vitest';
import { pendingBySubject, storedWindow } from '../../../src/services/limits/stored-windows.js';
import { PendingUsage } from '../../../src/services/usage/pending-usage.js';
import { FakeUsage } from '../../contracts/limiter.contract.js';

describe('usage windows of a key or an account: stored plus not yet written', () => {
  const waiting = new PendingUsage();
  const usage = {
    pending: (keyId: string, since: number) => waiting.window(keyId, since),
    pendingWhere: (belongs: (keyId: string) => boolean, since: number) => waiting.windowWhere(belongs, since),
  };
  const owners = new Map([
    ['k1', 'a1'],
    ['k2', 'a1'],
    ['k3', 'a2'],
  ]);
  const pending = pendingBySubject(usage, (k) => owners.get(k));

  it("adds the unwritten records of the account's keys to what the store holds", async () => {
    const stored = new FakeUsage();
    for (const [k, a] of owners) stored.owners.set(k, a);
    stored.add('k1', 1_000);
    waiting.add('k2', 500);
    waiting.add('k2', 2_000);
    waiting.add('k3', 3_000);
    waiting.add('k1', 50);
    const store = stored.asStore();
    expect(await storedWindow(store, pending, 'account:a1', 100)).toEqual({ count: 3, oldest: 500 });
    expect(await storedWindow(store, pending, 'account:a2', 0)).toEqual({ count: 1, oldest: 3_000 });
    expect(await storedWindow(store, pending, 'k1', 0)).toEqual({ count: 2, oldest: 50 });
    expect(await storedWindow(store, pending, 'account:none', 0)).toEqual({ count: 0, oldest: undefined });
    // Written records leave the pending count.
    waiting.remove('k2', 500);
    expect(await storedWindow(store, pending, 'account:a1', 100)).toEqual({ count: 2, oldest: 1_000 });
  });
});
