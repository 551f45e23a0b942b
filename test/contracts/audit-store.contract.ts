import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditStore } from '../../src/stores/audit.js';

export interface AuditStoreFixture {
  audit: AuditStore;
  /** Runs an UPDATE of every record straight on the database, past the store's interface. */
  tamper(): Promise<void>;
  /** The same store opened again (another process, or after a restart). */
  reopen(): Promise<AuditStore>;
  close(): Promise<void>;
}

const entry = (at: number, action: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  at,
  actor: 'key:admin',
  address: '203.0.113.7',
  action,
  target: 'key:k1',
  before: null,
  after: { name: 'one', models: ['gen-4.6', 'gen-4.5*'] },
  ...extra,
});

/** `store.audit`'s contract: every store implementation runs this same suite. */
export function runAuditStoreContract(label: string, setup: () => Promise<AuditStoreFixture>): void {
  describe(`audit store contract: ${label}`, () => {
    let f: AuditStoreFixture;
    beforeAll(async () => {
      f = await setup();
    });
    afterAll(() => f.close());

    it('appends records with increasing ids and reads every field back, newest first', async () => {
      const a = await f.audit.append(entry(1_000, 'key.create', { before: undefined }));
      const b = await f.audit.append(
        entry(2_000, 'key.update', {
          before: { name: 'one', nested: { list: [1, 'two', null] } },
          after: { name: 'two' },
          address: undefined,
          target: undefined,
        }),
      );
      expect(b.id).toBeGreaterThan(a.id);
      const listed = await f.audit.list({ limit: 10 });
      expect(listed).toEqual([
        { ...b, address: undefined, target: undefined },
        { ...a, before: null },
      ]);
    });

    it('filters by action (exact and prefix), actor, target and time, and pages by id', async () => {
      await f.audit.append(entry(3_000, 'account.create', { actor: 'account:a1', target: 'account:a1' }));
      await f.audit.append(entry(4_000, 'key.revoke', { actor: 'account:a1' }));
      await f.audit.append(entry(5_000, 'key%.odd', { actor: 'cli:root' }));
      const actions = async (q: Parameters<AuditStore['list']>[0]) => (await f.audit.list(q)).map((r) => r.action);
      expect(await actions({ limit: 10, action: 'key.revoke' })).toEqual(['key.revoke']);
      expect(await actions({ limit: 10, action: 'key.*' })).toEqual(['key.revoke', 'key.update', 'key.create']);
      // `%` and `_` are plain characters, not patterns.
      expect(await actions({ limit: 10, action: 'key%*' })).toEqual(['key%.odd']);
      expect(await actions({ limit: 10, action: 'k_y.*' })).toEqual([]);
      expect(await actions({ limit: 10, actor: 'account:a1' })).toEqual(['key.revoke', 'account.create']);
      expect(await actions({ limit: 10, target: 'account:a1' })).toEqual(['account.create']);
      expect(await actions({ limit: 10, since: 3_000, until: 5_000 })).toEqual(['key.revoke', 'account.create']);
      const first = await f.audit.list({ limit: 2 });
      expect(first.map((r) => r.action)).toEqual(['key%.odd', 'key.revoke']);
      const next = await f.audit.list({ limit: 2, beforeId: first[1]!.id });
      expect(next.map((r) => r.action)).toEqual(['account.create', 'key.update']);
    });

    it('refuses to change a record, even straight on the database', async () => {
      const before = await f.audit.list({ limit: 100 });
      await expect(f.tamper()).rejects.toThrow(/cannot be changed/);
      expect(await f.audit.list({ limit: 100 })).toEqual(before);
    });

    it('keeps records across a reopen, and retention deletes only the older ones', async () => {
      const again = await f.reopen();
      expect((await again.list({ limit: 100 })).length).toBe(5);
      expect(await again.deleteBefore(3_000)).toBe(2);
      expect((await f.audit.list({ limit: 100 })).map((r) => r.at)).toEqual([5_000, 4_000, 3_000]);
      // Ids keep increasing after deletes: a new record never takes an old one's id.
      const top = (await f.audit.list({ limit: 1 }))[0]!.id;
      expect((await f.audit.append(entry(6_000, 'key.roll'))).id).toBeGreaterThan(top);
    });
  });
}
