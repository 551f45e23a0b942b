import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountRecord, AccountStore } from '../../src/stores/accounts.js';
import type { Store } from '../../src/stores/types.js';

export interface AccountStoreFixture {
  store: Store;
  close(): Promise<void>;
}

const DAY = 86_400_000;

const account = (id: string, extra: Partial<AccountRecord> = {}): AccountRecord => ({
  id,
  name: `Holder ${id}`,
  email: `${id}@example.test`,
  passwordHash: 'scrypt$16384$8$1$salt$hash',
  createdAt: 1_000,
  disabledAt: undefined,
  ...extra,
});

const usage = (keyId: string, createdAt: number, model: string | undefined, status = 200) => ({
  keyId,
  operation: 'chat.completions',
  model,
  requestId: undefined,
  promptTokens: 10,
  completionTokens: 5,
  status,
  latencyMs: 1,
  createdAt,
});

/** `store.accounts`' contract: every store implementation runs this same suite. */
export function runAccountStoreContract(label: string, setup: () => Promise<AccountStoreFixture>): void {
  describe(`account store contract: ${label}`, () => {
    let f: AccountStoreFixture;
    let s: AccountStore;
    beforeAll(async () => {
      f = await setup();
      s = f.store.accounts;
    });
    afterAll(() => f.close());

    it('creates, reads, finds by email and lists accounts with every field intact', async () => {
      const a = account('acc1', { createdAt: 2_000 });
      const b = account('acc2', { createdAt: 3_000, disabledAt: 4_000 });
      await s.createAccount(a);
      await s.createAccount(b);
      expect(await s.getAccount('acc1')).toEqual(a);
      expect(await s.getAccount('acc2')).toEqual(b);
      expect(await s.getAccount('nope')).toBeUndefined();
      expect(await s.findAccountByEmail('acc1@example.test')).toEqual(a);
      expect(await s.findAccountByEmail('nobody@example.test')).toBeUndefined();
      expect((await s.listAccounts()).map((x) => x.id)).toEqual(['acc1', 'acc2']);
    });

    it('refuses a second account with the same email', async () => {
      await expect(s.createAccount(account('acc3', { email: 'acc1@example.test' }))).rejects.toThrow();
    });

    it('keeps sessions until they expire or are deleted', async () => {
      const session = {
        idHash: 'h1',
        accountId: 'acc1',
        adminKeyId: undefined,
        csrfToken: 'c1',
        createdAt: 10,
        expiresAt: 100,
      };
      const admin = {
        idHash: 'h2',
        accountId: undefined,
        adminKeyId: 'k-admin',
        csrfToken: 'c2',
        createdAt: 10,
        expiresAt: 200,
      };
      await s.createSession(session);
      await s.createSession(admin);
      expect(await s.getSession('h1', 50)).toEqual(session);
      expect(await s.getSession('h2', 50)).toEqual(admin);
      expect(await s.getSession('h1', 100)).toBeUndefined();
      expect(await s.deleteExpiredSessions(150)).toBe(1);
      expect(await s.getSession('h1', 50)).toBeUndefined();
      await s.deleteSession('h2');
      expect(await s.getSession('h2', 50)).toBeUndefined();
    });

    it("changing a password ends the account's other sessions", async () => {
      await s.createSession({
        idHash: 'p1',
        accountId: 'acc2',
        adminKeyId: undefined,
        csrfToken: 'c',
        createdAt: 10,
        expiresAt: 1e12,
      });
      await s.createSession({
        idHash: 'p2',
        accountId: 'acc2',
        adminKeyId: undefined,
        csrfToken: 'c',
        createdAt: 10,
        expiresAt: 1e12,
      });
      expect(await s.setPasswordHash('acc2', 'scrypt$new', 'p1')).toBe(true);
      expect((await s.getAccount('acc2'))?.passwordHash).toBe('scrypt$new');
      expect(await s.getSession('p1', 20)).toBeDefined();
      expect(await s.getSession('p2', 20)).toBeUndefined();
      expect(await s.setPasswordHash('nope', 'x')).toBe(false);
    });

    it('upgrades a hash in place only while it is the one read, sessions untouched', async () => {
      await s.createSession({
        idHash: 'u1',
        accountId: 'acc2',
        adminKeyId: undefined,
        csrfToken: 'c',
        createdAt: 10,
        expiresAt: 1e12,
      });
      const old = (await s.getAccount('acc2'))!.passwordHash;
      expect(await s.upgradePasswordHash('acc2', old, 'scrypt$upgraded')).toBe(true);
      expect((await s.getAccount('acc2'))?.passwordHash).toBe('scrypt$upgraded');
      expect(await s.getSession('u1', 20)).toBeDefined();
      // The password changed meanwhile: the stale upgrade does nothing.
      expect(await s.upgradePasswordHash('acc2', old, 'scrypt$stale')).toBe(false);
      expect((await s.getAccount('acc2'))?.passwordHash).toBe('scrypt$upgraded');
      expect(await s.upgradePasswordHash('nope', 'a', 'b')).toBe(false);
    });

    it('disabling an account keeps the first time and ends its sessions only', async () => {
      await s.createSession({
        idHash: 'h3',
        accountId: 'acc1',
        adminKeyId: undefined,
        csrfToken: 'c',
        createdAt: 10,
        expiresAt: 1e12,
      });
      await s.createSession({
        idHash: 'h4',
        accountId: undefined,
        adminKeyId: 'admin',
        csrfToken: 'c',
        createdAt: 10,
        expiresAt: 1e12,
      });
      expect(await s.disableAccount('acc1', 5_000)).toBe(true);
      expect(await s.disableAccount('acc1', 6_000)).toBe(true);
      expect((await s.getAccount('acc1'))?.disabledAt).toBe(5_000);
      expect(await s.getSession('h3', 20)).toBeUndefined();
      expect(await s.getSession('h4', 20)).toBeDefined();
      expect(await s.disableAccount('nope', 5_000)).toBe(false);
    });

    it('records key owners, the last owner set winning', async () => {
      await s.setKeyOwner('k1', 'acc1');
      await s.setKeyOwner('k2', 'acc2');
      await s.setKeyOwner('k2', 'acc1');
      expect(await s.keyOwners()).toEqual(
        new Map([
          ['k1', 'acc1'],
          ['k2', 'acc1'],
        ]),
      );
      expect(await s.keyOwner('k2')).toBe('acc1');
      expect(await s.keyOwner('admins')).toBeUndefined();
    });

    it("counts an account's usage window over every key it holds or held, and no other account's", async () => {
      const t0 = 30_000 * DAY;
      await s.createAccount(account('win1', { email: 'win1@example.test' }));
      await s.createAccount(account('win2', { email: 'win2@example.test' }));
      await s.setKeyOwner('w1', 'win1');
      await s.setKeyOwner('w2', 'win1');
      await s.setKeyOwner('w3', 'win2');
      expect(await s.accountUsageWindow('win1', t0)).toEqual({ count: 0, oldest: undefined });
      await f.store.recordUsage([
        usage('w1', t0 - 1, 'gen-4.6'),
        usage('w1', t0 + 10, 'gen-4.6'),
        usage('w2', t0 + 5, 'gen-4.6', 429),
        usage('w2', t0 + 20, undefined),
        usage('w3', t0 + 1, 'gen-4.6'),
        usage('nobody', t0 + 1, 'gen-4.6'),
      ]);
      expect(await s.accountUsageWindow('win1', t0)).toEqual({ count: 3, oldest: t0 + 5 });
      expect(await s.accountUsageWindow('win1', t0 + 11)).toEqual({ count: 1, oldest: t0 + 20 });
      expect(await s.accountUsageWindow('win2', t0)).toEqual({ count: 1, oldest: t0 + 1 });
      expect(await s.accountUsageWindow('none', 0)).toEqual({ count: 0, oldest: undefined });
    });

    it('keeps usage windows in an account policy', async () => {
      const policy = {
        concurrent: 2,
        windows: [
          { requests: 100, hours: 5 },
          { requests: 1000, hours: 168 },
        ],
      };
      expect(await s.setAccountPolicy('win1', policy)).toBe(true);
      expect(await s.accountPolicy('win1')).toEqual(policy);
    });

    it('sums usage per UTC day, key and model, and tells when each key was last used', async () => {
      const t0 = 20_000 * DAY;
      await f.store.recordUsage([
        { ...usage('u1', t0 + 5, 'gen-4.6'), cost: 1_500 },
        usage('u1', t0 + 6, 'gen-4.6', 500),
        usage('u1', t0 + 7, undefined),
        usage('u1', t0 + DAY + 1, 'gen-4.6'),
        usage('u2', t0 + 9, 'gen-4.6'),
        usage('u3', t0 + 9, 'gen-4.6'),
        usage('u1', t0 - DAY, 'gen-4.6'),
      ]);
      const rows = await s.dailyUsage(['u1', 'u2'], t0);
      expect(rows).toEqual([
        { day: t0, keyId: 'u1', model: '', requests: 1, errors: 0, promptTokens: 10, completionTokens: 5, cost: 0 },
        {
          day: t0,
          keyId: 'u1',
          model: 'gen-4.6',
          requests: 2,
          errors: 1,
          promptTokens: 20,
          completionTokens: 10,
          cost: 1_500,
        },
        {
          day: t0,
          keyId: 'u2',
          model: 'gen-4.6',
          requests: 1,
          errors: 0,
          promptTokens: 10,
          completionTokens: 5,
          cost: 0,
        },
        {
          day: t0 + DAY,
          keyId: 'u1',
          model: 'gen-4.6',
          requests: 1,
          errors: 0,
          promptTokens: 10,
          completionTokens: 5,
          cost: 0,
        },
      ]);
      expect(await s.dailyUsage([], 0)).toEqual([]);
      expect(await s.lastUsed(['u1', 'u2', 'never'])).toEqual(
        new Map([
          ['u1', t0 + DAY + 1],
          ['u2', t0 + 9],
        ]),
      );
      expect(await s.lastUsed([])).toEqual(new Map());
    });
  });
}
