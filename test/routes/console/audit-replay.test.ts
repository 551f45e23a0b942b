import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY } from './support.js';

type Json = Record<string, unknown>;
interface AuditJson {
  at: string;
  actor: string;
  address: string | null;
  action: string;
  target: string | null;
  before: Json | null;
  after: Json | null;
}

const ADDRESS = '203.0.113.9';

/**
 * A console session replayed as the page makes it (cookie, CSRF token, the client's address):
 * create, change, roll and revoke a key, top up an account, change a price. Each act is exactly one
 * record of `GET /admin/audit` with the actor, the address and the state before and after; nothing
 * the session saw that is a secret (keys, the initial password, the cookie, the CSRF token) is in
 * any record; a roll's `previous_secret_until` is kept as the time it is.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`a console session, replayed against the audit log (${backend})`, () => {
    let t: TestApp;
    let drop: (() => Promise<void>) | undefined;
    let cookie = '';
    let csrf = '';
    const secrets: string[] = [];
    const page = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Json) => {
      const res = await t.app.inject({
        method,
        url: `/console/api${url}`,
        remoteAddress: ADDRESS,
        headers: { cookie, ...(method === 'GET' ? {} : { 'x-csrf-token': csrf }) },
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
      return res.json() as Json;
    };
    /** The records of one action, through the operator's own route. */
    const audit = async (action: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/admin/audit?action=${action}`,
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: AuditJson[] }).data;
    };
    const one = async (action: string) => {
      const records = await audit(action);
      expect(records, action).toHaveLength(1);
      const [record] = records as [AuditJson];
      expect(record).toMatchObject({ actor: 'key:admin', address: ADDRESS, action });
      expect(Number.isNaN(Date.parse(record.at))).toBe(false);
      return record;
    };

    let accountId = '';
    let keyId = '';

    beforeAll(async () => {
      const database = backend === 'postgres' ? await freshSchema() : undefined;
      drop = database?.drop;
      t = await createTestApp({
        security: { admin_key: ADMIN_KEY },
        prices: { web_search: { per_call: '0.01' } },
        ...(database ? { database: { url: DATABASE_URL, schema: database.schema } } : {}),
      });
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/console/api/session',
        remoteAddress: ADDRESS,
        payload: { admin_key: ADMIN_KEY },
      });
      expect(signedIn.statusCode).toBe(200);
      cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
      csrf = (signedIn.json() as { csrf_token: string }).csrf_token;
      secrets.push(ADMIN_KEY, cookie.split('=')[1]!, csrf);
    });
    afterAll(async () => {
      await t?.close();
      await drop?.();
    });

    it('creates an account and a key for it', async () => {
      const account = await page('POST', '/accounts', { name: 'Ada', email: 'ada@example.test' });
      accountId = account['id'] as string;
      secrets.push(account['password'] as string);
      expect((await one('account.create')).after).toMatchObject({ id: accountId, email: 'ada@example.test' });

      const made = await page('POST', '/keys', {
        name: 'ada-ci',
        account_id: accountId,
        models: ['gen-4.6'],
        expires_at: '2099-01-01T00:00:00Z',
      });
      keyId = made['id'] as string;
      secrets.push(made['key'] as string, (made['key'] as string).split('.')[1]!);
      const record = await one('key.create');
      expect(record.target).toBe(`key:${keyId}`);
      expect(record.before).toBeNull();
      expect(record.after).toMatchObject({
        id: keyId,
        name: 'ada-ci',
        models: ['gen-4.6'],
        expires_at: 4_070_908_800,
        account: accountId,
      });
    });

    it('changes the key: before and after', async () => {
      await page('PATCH', `/keys/${keyId}`, { models: ['gen-4.6', 'gen-4.5*'], description: 'nightly' });
      const record = await one('key.update');
      expect(record.before).toMatchObject({ models: ['gen-4.6'], description: '' });
      expect(record.after).toMatchObject({ models: ['gen-4.6', 'gen-4.5*'], description: 'nightly' });
    });

    it("rolls the key: the old secret's grace end is a time, shown as such", async () => {
      const before = Math.floor(Date.now() / 1000);
      const rolled = await page('POST', `/keys/${keyId}/roll`, { grace_seconds: 3600 });
      secrets.push(rolled['key'] as string, (rolled['key'] as string).split('.')[1]!);
      const record = await one('key.roll');
      expect(record.before).toMatchObject({ id: keyId, previous_secret_until: null });
      const until = record.after?.['previous_secret_until'];
      expect(typeof until).toBe('number');
      expect(until).toBeGreaterThanOrEqual(before + 3600);
      expect(until).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
      expect(until).toBe(rolled['previous_secret_until']);
    });

    it('revokes the key', async () => {
      await page('POST', `/keys/${keyId}/revoke`);
      const record = await one('key.revoke');
      expect(record.before).toMatchObject({ revoked_at: null });
      expect(typeof record.after?.['revoked_at']).toBe('number');
    });

    it("tops up the account's balance", async () => {
      await page('POST', `/billing/accounts/${accountId}/credit`, { amount: '12.50', note: 'welcome' });
      const record = await one('balance.credit');
      expect(record.target).toBe(`account:${accountId}`);
      expect(record.before).toEqual({ balance: '0.00' });
      expect(record.after).toMatchObject({ balance: '12.50', amount: '12.50', note: 'welcome' });
    });

    it('changes a price', async () => {
      await page('POST', '/billing/prices/web_search', { per_call: '0.02' });
      const record = await one('price.set');
      expect(record.target).toBe('price:web_search');
      expect(record.before).toMatchObject({ per_call: '0.01' });
      expect(record.after).toMatchObject({ per_call: '0.02' });
    });

    it('holds no secret the session saw, and nothing redacted that is not one', async () => {
      const all = await audit('*');
      const text = JSON.stringify(all);
      for (const secret of secrets) expect(text).not.toContain(secret);
      // The only acts of the session, each once (and the sign-in that opened it).
      expect(all.map((r) => r.action).sort()).toEqual(
        [
          'account.create',
          'balance.credit',
          'key.create',
          'key.revoke',
          'key.roll',
          'key.update',
          'price.set',
          'session.sign_in',
        ].sort(),
      );
      expect(text).not.toContain('[redacted]');
    });
  });
}
