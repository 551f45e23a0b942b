import { describe, expect, it } from 'vitest';
import { AccountPolicies, NOT_KNOWN } from '../../../src/services/keys/account-policies.js';
import type { AccountPolicy } from '../../../src/stores/accounts.js';
import type { Store } from '../../../src/stores/types.js';

const defaults = { concurrent: 8, requests_per_minute: 0, max_keys: 20, windows: [] };

/** Just what AccountPolicies reads: key owners and account policies, counting the reads. */
function fakeStore() {
  const owners = new Map<string, string>([['held', 'acme']]);
  const policies = new Map<string, AccountPolicy>();
  const reads = { owner: 0, policy: 0 };
  const accounts = {
    keyOwner: async (keyId: string) => {
      reads.owner++;
      return owners.get(keyId);
    },
    accountPolicy: async (id: string) => {
      reads.policy++;
      return policies.get(id);
    },
    setAccountPolicy: async (id: string, policy: AccountPolicy | undefined) => {
      if (policy === undefined) policies.delete(id);
      else policies.set(id, policy);
      return true;
    },
  };
  return { store: { accounts } as unknown as Store, policies, reads };
}

describe('AccountPolicies.knownForKey: what forKey would answer, without the store', () => {
  it('is not known before the first lookup, then answers as forKey did until TTL_MS', async () => {
    const { store, reads } = fakeStore();
    let now = 0;
    const policies = new AccountPolicies(store, defaults, () => now);
    expect(policies.knownForKey('held')).toBe(NOT_KNOWN);
    const held = await policies.forKey('held');
    expect(held?.accountId).toBe('acme');
    expect(policies.knownForKey('held')).toBe(held);
    // The admin's key: known to belong to nobody.
    await policies.forKey('admins');
    expect(policies.knownForKey('admins')).toBeUndefined();
    now = 1_999;
    expect(policies.knownForKey('held')).toBe(held);
    now = 2_000;
    expect(policies.knownForKey('held')).toBe(NOT_KNOWN);
    expect(reads.owner).toBe(2);
  });

  it("is not known once this process changes the account's policy: the next lookup reads the new one", async () => {
    const { store } = fakeStore();
    const policies = new AccountPolicies(store, defaults, () => 0);
    expect((await policies.forKey('held'))?.limits.concurrent).toBe(8);
    await policies.set('acme', { concurrent: 2, models: ['gen-4.6'] });
    expect(policies.knownForKey('held')).toBe(NOT_KNOWN);
    const now = await policies.forKey('held');
    expect(now?.limits.concurrent).toBe(2);
    expect(now?.models).toEqual(['gen-4.6']);
    expect(policies.knownForKey('held')).toBe(now);
  });

  it('is not known once a key is forgotten (its holder changed)', async () => {
    const { store } = fakeStore();
    const policies = new AccountPolicies(store, defaults, () => 0);
    await policies.forKey('held');
    policies.forget('held');
    expect(policies.knownForKey('held')).toBe(NOT_KNOWN);
  });
});
