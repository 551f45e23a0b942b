import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, signIn } from '../console/support.js';

type Json = Record<string, unknown>;
const UPSTREAM = { engine: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'stand-in' };

/**
 * An account's own policy (limits its keys share, model allowlist, key cap) set over `/admin` and
 * the console: defaults until set, null back to the default, bad input refused naming the field,
 * enforced on its keys at once, and each change one audit record with before and after.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`account policy over /admin and the console (${backend})`, () => {
    let t: TestApp;
    let drop: (() => Promise<void>) | undefined;
    let accountId: string;
    const admin = { authorization: `Bearer ${ADMIN_KEY}` };
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => {
      const res = await t.app.inject({
        method,
        url,
        headers: admin,
        remoteAddress: '198.51.100.7',
        ...(payload === undefined ? {} : { payload: payload as Json }),
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const listed = async (key: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/paas/v4/models',
        headers: { authorization: `Bearer ${key}` },
      });
      return (res.json() as { data: { id: string }[] }).data.map((m) => m.id).sort();
    };
    const audits = async () =>
      (await call('GET', `/admin/audit?action=account.policy`)).body['data'] as {
        actor: string;
        address: string;
        target: string;
        before: Json;
        after: Json;
      }[];

    beforeAll(async () => {
      const database = backend === 'postgres' ? await freshSchema() : undefined;
      drop = database?.drop;
      t = await createTestApp({
        security: { admin_key: ADMIN_KEY },
        models: { 'gen-4.6': { deployments: [UPSTREAM] }, 'gen-4.5': { deployments: [UPSTREAM] } },
        accounts: { concurrent: 4, requests_per_minute: 0, max_keys: 5 },
        ...(database ? { database: { url: DATABASE_URL, schema: database.schema } } : {}),
      });
      ({
        account: { id: accountId },
      } = await t.services.accounts.createAccount({ name: 'Docs team', email: 'docs@example.test' }));
    });
    afterAll(async () => {
      await t?.close();
      await drop?.();
    });

    it('shows the configured defaults until the account has its own', async () => {
      const got = await call('GET', `/admin/accounts/${accountId}/policy`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual({
        account_id: accountId,
        own: { concurrent: null, requests_per_minute: null, max_keys: null, models: [], windows: null },
        effective: { concurrent: 4, requests_per_minute: 0, max_keys: 5, models: [], windows: [] },
        active_keys: 0,
      });
      // By email too, as `POST /admin/keys {account}` takes it.
      expect((await call('GET', '/admin/accounts/docs@example.test/policy')).body['account_id']).toBe(accountId);
      expect((await call('GET', '/admin/accounts/nobody/policy')).status).toBe(404);
    });

    it('an account created over /admin is recorded with the admin key and its address', async () => {
      expect((await call('POST', '/admin/accounts', { name: 'Ops', email: 'ops@example.test' })).status).toBe(200);
      const { data } = (await call('GET', '/admin/audit?action=account.create')).body as {
        data: { actor: string; address: string; after: Json }[];
      };
      expect(data[0]).toMatchObject({
        actor: 'key:admin',
        address: '198.51.100.7',
        after: { email: 'ops@example.test' },
      });
    });

    it('sets limits, a model allowlist and a key cap; its keys are held to them at once; the change is audited', async () => {
      const set = await call('PATCH', `/admin/accounts/${accountId}/policy`, {
        concurrent: 1,
        models: ['gen-4.6', ' gen-4.6 '],
        max_keys: 1,
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toMatchObject({
        own: { concurrent: 1, requests_per_minute: null, max_keys: 1, models: ['gen-4.6'] },
        effective: { concurrent: 1, requests_per_minute: 0, max_keys: 1, models: ['gen-4.6'] },
      });

      const made = await call('POST', '/admin/keys', { name: 'docs-1', account: accountId });
      expect(made.status).toBe(200);
      expect(await listed(made.body['key'] as string)).toEqual(['gen-4.6']);
      const second = await call('POST', '/admin/keys', { name: 'docs-2', account: accountId });
      expect(second.status).toBe(403);
      expect(second.body['code']).toBe(1220);
      expect((await call('GET', `/admin/accounts/${accountId}/policy`)).body['active_keys']).toBe(1);

      const [record, ...more] = await audits();
      expect(more).toHaveLength(0);
      expect(record).toMatchObject({
        actor: 'key:admin',
        address: '198.51.100.7',
        target: `account:${accountId}`,
        before: { concurrent: null, requests_per_minute: null, max_keys: null, models: [] },
        after: { concurrent: 1, requests_per_minute: null, max_keys: 1, models: ['gen-4.6'] },
      });
    });

    it('null gives a field back to the default; a change that changes nothing is not recorded', async () => {
      const back = await call('PATCH', `/admin/accounts/${accountId}/policy`, { max_keys: null, models: null });
      expect(back.body).toMatchObject({
        own: { concurrent: 1, max_keys: null, models: [] },
        effective: { concurrent: 1, max_keys: 5, models: [] },
      });
      expect((await call('PATCH', `/admin/accounts/${accountId}/policy`, { concurrent: 1 })).status).toBe(200);
      const records = await audits();
      expect(records).toHaveLength(2);
      expect(records[0]).toMatchObject({ before: { max_keys: 1, models: ['gen-4.6'] }, after: { max_keys: null } });
    });

    it('refuses bad input naming the field, and changes nothing', async () => {
      for (const [body, field] of [
        [{ windows: [{ requests: 0, hours: 5 }] }, 'windows'],
        [{ windows: [{ requests: 10, hours: 0 }] }, 'windows'],
        [{ windows: [{ requests: 10 }] }, 'windows'],
        [{ models: ['gen-4.6', 'not a model!'] }, 'models'],
        [{ concurrent: -1 }, 'concurrent'],
        [{ max_keys: 1.5 }, 'max_keys'],
        [{ requests_per_minute: 'many' }, 'requests_per_minute'],
        [{ burst: 3 }, 'burst'],
      ] as const) {
        const res = await call('PATCH', `/admin/accounts/${accountId}/policy`, body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body['message'], JSON.stringify(body)).toContain(field);
      }
      expect((await call('PATCH', `/admin/accounts/${accountId}/policy`, {})).status).toBe(400);
      expect((await call('PATCH', '/admin/accounts/nobody/policy', { concurrent: 1 })).status).toBe(404);
      expect(await audits()).toHaveLength(2);
    });

    it("usage windows are shared by the account's keys; a key's own window only narrows; null is the default", async () => {
      const { account } = await t.services.accounts.createAccount({ name: 'Windows', email: 'windows@example.test' });
      const set = await call('PATCH', `/admin/accounts/${account.id}/policy`, { windows: [{ requests: 3, hours: 5 }] });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toMatchObject({
        own: { windows: [{ requests: 3, hours: 5 }] },
        effective: { windows: [{ requests: 3, hours: 5 }] },
      });
      const key = async (name: string, limits?: Json) => {
        const made = await call('POST', '/admin/keys', { name, account: account.id, ...(limits ? { limits } : {}) });
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        return made.body['key'] as string;
      };
      const [a, b, narrow] = [
        await key('win-a'),
        await key('win-b'),
        await key('win-n', { windows: [{ requests: 1, hours: 1 }] }),
      ];
      const chat = async (k: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/paas/v4/chat/completions',
          headers: { authorization: `Bearer ${k}` },
          payload: { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] },
        });
        return { status: res.statusCode, body: res.json() as { code?: number; message?: string } };
      };
      // The key's own window (1) is narrower than the account's (3): its second request is refused.
      expect((await chat(narrow)).body.code).not.toBe(1308);
      const own = await chat(narrow);
      expect(own.body).toMatchObject({ code: 1308, message: expect.stringContaining('this key allows 1 requests') });
      // Whichever key asks, the account's three requests are spent together (a refused one does not count).
      expect((await chat(a)).body.code).not.toBe(1308);
      expect((await chat(b)).body.code).not.toBe(1308);
      for (const k of [a, b]) {
        const refused = await chat(k);
        expect(refused.status).toBe(429);
        expect(refused.body).toMatchObject({
          code: 1308,
          message: expect.stringContaining('this account allows 3 requests per 5 hours'),
        });
      }
      const [record] = await audits();
      expect(record).toMatchObject({ before: { windows: null }, after: { windows: [{ requests: 3, hours: 5 }] } });
      // Back to the default (none configured here): the keys are let through again.
      const back = await call('PATCH', `/admin/accounts/${account.id}/policy`, { windows: null });
      expect(back.body).toMatchObject({ own: { windows: null }, effective: { windows: [] } });
      expect((await chat(a)).body.code).not.toBe(1308);
    });

    it('the console: the admin lists and sets policies; an account holder may not', async () => {
      const console = await signIn(t.app, { admin_key: ADMIN_KEY });
      const list = await console.call('GET', '/console/api/accounts/policies');
      expect(list.status).toBe(200);
      expect(list.body['data']).toEqual(
        expect.arrayContaining([expect.objectContaining({ account_id: accountId, active_keys: 1 })]),
      );
      const set = await console.call('PATCH', `/console/api/accounts/${accountId}/policy`, { requests_per_minute: 30 });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({ effective: { requests_per_minute: 30 } });
      const [latest] = await audits();
      expect(latest).toMatchObject({
        actor: 'key:admin',
        before: { requests_per_minute: null },
        after: { requests_per_minute: 30 },
      });
      // Without the CSRF token the change is refused.
      expect(
        (await console.call('PATCH', `/console/api/accounts/${accountId}/policy`, { concurrent: 9 }, { csrf: null }))
          .status,
      ).toBe(403);

      const { password } = await t.services.accounts.createAccount({ name: 'Holder', email: 'holder@example.test' });
      const holder = await signIn(t.app, { email: 'holder@example.test', password });
      expect((await holder.call('GET', '/console/api/accounts/policies')).status).toBe(403);
      expect((await holder.call('PATCH', `/console/api/accounts/${accountId}/policy`, { concurrent: 99 })).status).toBe(
        403,
      );
    });
  });
}
