import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressAllowed, cidrProblem, modelAllowed } from '../../../src/services/keys/key-policy.js';
import { KeyService } from '../../../src/services/keys/key-service.js';
import { applyPolicy } from '../../../src/services/keys/policy-input.js';
import { SecretBox } from '../../../src/services/keys/secret-box.js';
import { PostgresStore } from '../../../src/stores/postgres/postgres-store.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import type { Store } from '../../../src/stores/types.js';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'accepted',
    (err: { code?: number }) => err.code,
  );

describe('key policy rules', () => {
  it('matches model codes exactly and patterns with *', () => {
    expect(modelAllowed(undefined, 'gen-4.6')).toBe(true);
    expect(modelAllowed([], 'gen-4.6')).toBe(true);
    const list = ['gen-4.6', 'gen-4.5*'];
    expect(modelAllowed(list, 'gen-4.6')).toBe(true);
    expect(modelAllowed(list, 'gen-4.5')).toBe(true);
    expect(modelAllowed(list, 'gen-4.5-air')).toBe(true);
    expect(modelAllowed(list, 'gen-4.6-flash')).toBe(false);
    expect(modelAllowed(list, 'gen-4.7')).toBe(false);
    expect(modelAllowed(['*-flash'], 'gen-4.7-flash')).toBe(true);
    expect(modelAllowed(['gen-*-flash'], 'gen-4.7-flash')).toBe(true);
    expect(modelAllowed(['gen-*-flash'], 'gen-flash')).toBe(false);
    // A dot is literal, not "any character".
    expect(modelAllowed(['gen-4.5*'], 'gen-415')).toBe(false);
  });

  it('checks addresses against IPv4 and IPv6 CIDRs, IPv4-mapped addresses included', () => {
    const cidrs = ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32'];
    expect(addressAllowed(cidrs, '10.1.2.3')).toBe(true);
    expect(addressAllowed(cidrs, '::ffff:10.1.2.3')).toBe(true);
    expect(addressAllowed(cidrs, '192.0.2.7')).toBe(true);
    expect(addressAllowed(cidrs, '192.0.2.8')).toBe(false);
    expect(addressAllowed(cidrs, '2001:db8:1::5')).toBe(true);
    expect(addressAllowed(cidrs, '2001:db9::5')).toBe(false);
    expect(addressAllowed(cidrs, 'not-an-ip')).toBe(false);
    expect(addressAllowed([], '203.0.113.1')).toBe(true);
  });

  it('refuses bad input naming the field and the rule', () => {
    expect(cidrProblem('10.0.0.0/33')).toMatch(/prefix/);
    expect(cidrProblem('example.com')).toMatch(/not an IPv4 or IPv6/);
    expect(cidrProblem('2001:db8::/64')).toBeUndefined();
    const bad = (input: Parameters<typeof applyPolicy>[1]) => {
      try {
        applyPolicy(undefined, input);
        return 'accepted';
      } catch (err) {
        return `${(err as { code: number }).code} ${(err as Error).message}`;
      }
    };
    expect(bad({ models: ['gen 4.6'] })).toMatch(/^1214 Invalid models: .*pattern/);
    expect(bad({ allowed_ips: ['10.0.0.0/40'] })).toMatch(/^1214 Invalid allowed_ips/);
    expect(bad({ expires_at: '31/12/2026' })).toMatch(/^1214 Invalid expires_at: must be an RFC 3339 time/);
    expect(bad({ expires_at: -1 })).toMatch(/^1214 Invalid expires_at/);
    expect(bad({ description: 'x'.repeat(1001) })).toMatch(/^1214 Invalid description/);
    expect(applyPolicy(undefined, { expires_at: '2026-12-31T00:00:00Z' })).toEqual({
      expiresAt: Date.UTC(2026, 11, 31),
    });
    expect(applyPolicy({ models: ['a'], description: 'd' }, { models: [], description: null })).toBeUndefined();
  });
});

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`key governance on ${backend}: expiry, addresses, changes and rolls`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    let now = Date.UTC(2026, 11, 30, 23, 59, 58);
    let keys: KeyService;
    const box = new SecretBox(randomBytes(32));

    beforeAll(async () => {
      if (backend === 'sqlite') {
        const dir = mkdtempSync(path.join(tmpdir(), 'gen-platform-gov-'));
        const sqlite = new SqliteStore(path.join(dir, 'keys.db'));
        store = sqlite;
        cleanup = async () => {
          await sqlite.close();
          rmSync(dir, { recursive: true, force: true });
        };
      } else {
        const fresh = await freshSchema();
        const pg = await PostgresStore.open({ url: DATABASE_URL, schema: fresh.schema });
        store = pg;
        cleanup = async () => {
          await pg.close();
          await fresh.drop();
        };
      }
      keys = new KeyService({ store, box, now: () => now });
    });
    afterAll(() => cleanup());

    it('refuses a key from the exact second of expires_at on (1003), a signed token too', async () => {
      now = Date.UTC(2026, 11, 30, 23, 59, 58);
      const policy = applyPolicy(undefined, { expires_at: '2026-12-31T00:00:00Z' });
      const { key, record } = await keys.create({ name: 'expiring', policy });
      expect((await store.getKey(record.id))?.policy).toEqual({ expiresAt: Date.UTC(2026, 11, 31) });
      expect(await refusal(keys.authenticate(`Bearer ${key}`))).toBe('accepted');
      now = Date.UTC(2026, 11, 31) - 1;
      expect(await refusal(keys.authenticate(`Bearer ${key}`))).toBe('accepted');
      const token = await keys.signToken(record.id, now + 3_600_000);
      now = Date.UTC(2026, 11, 31);
      expect(await refusal(keys.authenticate(`Bearer ${key}`))).toBe(1003);
      expect(await refusal(keys.authenticate(`Bearer ${token}`))).toBe(1003);
      now = Date.UTC(2026, 11, 31) + 1_000;
      expect(await refusal(keys.authenticate(`Bearer ${key}`))).toBe(1003);
    });

    it('refuses a key used from outside its allowed_ips (1220), and accepts it from inside', async () => {
      now = Date.UTC(2026, 0, 1);
      const policy = applyPolicy(undefined, { allowed_ips: ['198.51.100.0/24', '2001:db8::/32'] });
      const { key } = await keys.create({ name: 'office', policy });
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '198.51.100.9'))).toBe('accepted');
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '2001:db8::1'))).toBe('accepted');
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '203.0.113.9'))).toBe(1220);
      // A cached check still looks at the address of every request.
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '198.51.100.9'))).toBe('accepted');
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '127.0.0.1'))).toBe(1220);
    });

    it('changes settings in place (same id and secret), and a change is seen at once', async () => {
      now = Date.UTC(2026, 0, 1);
      const { key, record } = await keys.create({ name: 'before' });
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '203.0.113.9'))).toBe('accepted');
      const policy = applyPolicy(undefined, { models: ['gen-4.5*'], allowed_ips: ['10.0.0.0/8'], description: 'ci' });
      const after = await keys.update(record.id, { name: 'after', endpoints: ['coding'], limits: undefined, policy });
      expect(after).toMatchObject({ id: record.id, name: 'after', endpoints: ['coding'], policy });
      expect(await refusal(keys.authenticate(`Bearer ${key}`, '203.0.113.9'))).toBe(1220);
      expect((await keys.authenticate(`Bearer ${key}`, '10.0.0.1')).policy?.models).toEqual(['gen-4.5*']);
      await keys.update(record.id, { name: 'after', endpoints: ['coding'], limits: undefined, policy: undefined });
      expect((await store.getKey(record.id))?.policy).toBeUndefined();
      expect(await keys.update('f'.repeat(32), { name: 'x', endpoints: [], limits: undefined })).toBeUndefined();
    });

    it('rolls a key: new secret, same id and settings, the old secret valid for the grace period only', async () => {
      now = Date.UTC(2026, 0, 1);
      const policy = applyPolicy(undefined, { models: ['gen-4.6'] });
      const { key: old, record } = await keys.create({ name: 'rolled', policy });
      const oldToken = await keys.signToken(record.id, now + 3_600_000);
      expect(await refusal(keys.authenticate(`Bearer ${old}`))).toBe('accepted');
      const rolled = await keys.roll(record.id, 60_000);
      expect(rolled?.key.split('.')[0]).toBe(record.id);
      expect(rolled?.key).not.toBe(old);
      expect(rolled?.record).toMatchObject({ id: record.id, name: 'rolled', policy });
      expect(await refusal(keys.authenticate(`Bearer ${rolled!.key}`))).toBe('accepted');
      expect(await refusal(keys.authenticate(`Bearer ${old}`))).toBe('accepted');
      expect(await refusal(keys.authenticate(`Bearer ${oldToken}`))).toBe('accepted');
      now += 60_000;
      expect(await refusal(keys.authenticate(`Bearer ${old}`))).toBe(1002);
      expect(await refusal(keys.authenticate(`Bearer ${oldToken}`))).toBe(1002);
      expect(await refusal(keys.authenticate(`Bearer ${rolled!.key}`))).toBe('accepted');
      // Without grace the replaced secret is refused at once.
      const again = await keys.roll(record.id, 0);
      expect(await refusal(keys.authenticate(`Bearer ${rolled!.key}`))).toBe(1002);
      expect(await refusal(keys.authenticate(`Bearer ${again!.key}`))).toBe('accepted');
      await keys.revoke(record.id);
      expect(await keys.roll(record.id, 0)).toBeUndefined();
    });
  });
}
