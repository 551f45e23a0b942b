import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/services/accounts/principal.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

describe('key access per principal', () => {
  let t: TestApp;
  let holder: Principal;
  let other: Principal;
  const admin: Principal = { kind: 'admin' };
  beforeAll(async () => {
    t = await createTestApp({ limits: { concurrent: 4, requests_per_minute: 0 } });
    holder = {
      kind: 'account',
      account: (await t.services.accounts.createAccount({ name: 'H', email: 'H@X.test' })).account,
    };
    other = {
      kind: 'account',
      account: (await t.services.accounts.createAccount({ name: 'O', email: 'o@x.test' })).account,
    };
  });
  afterAll(() => t.close());

  it('stores emails lower-cased and refuses a second account with the same email', async () => {
    expect(holder.kind === 'account' && holder.account.email).toBe('h@x.test');
    await expect(t.services.accounts.createAccount({ name: 'again', email: 'h@x.TEST' })).rejects.toMatchObject({
      code: 1214,
    });
  });

  it('an account holder may tighten the default limits, never loosen them', async () => {
    const ok = await t.services.keyAccess.create(holder, { name: 'tight', limits: { concurrent: 2 } });
    expect(ok.view.limits).toEqual({ concurrent: 2, requests_per_minute: 0, windows: [] });
    for (const concurrent of [0, 5]) {
      await expect(
        t.services.keyAccess.create(holder, { name: 'loose', limits: { concurrent } }),
      ).rejects.toMatchObject({
        code: 1214,
        message: expect.stringContaining('limits.concurrent'),
      });
    }
    // No default per minute (0): any value is a tightening.
    const rpm = await t.services.keyAccess.create(holder, { name: 'rpm', limits: { requests_per_minute: 1000 } });
    expect(rpm.view.limits?.requests_per_minute).toBe(1000);
    const adminKey = await t.services.keyAccess.create(admin, { name: 'any', limits: { concurrent: 0 } });
    expect(adminKey.view.limits?.concurrent).toBe(0);
  });

  it('keys are seen and revoked by their holder and the admin only', async () => {
    const { view } = await t.services.keyAccess.create(holder, { name: 'mine' });
    expect(view.account_id).toBe(holder.kind === 'account' && holder.account.id);
    expect((await t.services.keyAccess.list(other)).map((k) => k.name)).not.toContain('mine');
    await expect(t.services.keyAccess.revoke(other, view.id)).rejects.toMatchObject({ code: 1233 });
    await expect(
      t.services.keyAccess.create(other, { name: 'for someone else', accountId: view.account_id! }),
    ).rejects.toMatchObject({ code: 1220 });
    expect((await t.services.keyAccess.list(admin)).map((k) => k.name)).toContain('mine');
    await t.services.keyAccess.revoke(admin, view.id);
    const [mine] = (await t.services.keyAccess.list(holder)).filter((k) => k.id === view.id);
    expect(mine?.status).toBe('revoked');
  });

  it("the admin gives a key to an account; keys from /admin/keys are the admin's unless `account` says otherwise", async () => {
    const { view } = await t.services.keyAccess.create(admin, {
      name: 'given',
      accountId: holder.kind === 'account' ? holder.account.id : '',
    });
    expect((await t.services.keyAccess.list(holder)).map((k) => k.id)).toContain(view.id);

    const bearer = await t.services.keys.create({ name: 'op', role: 'admin', endpoints: [] });
    const headers = { authorization: `Bearer ${bearer.key}` };
    const plain = await t.app.inject({ method: 'POST', url: '/admin/keys', headers, payload: { name: 'ops' } });
    expect(plain.statusCode).toBe(200);
    expect(plain.json()).not.toHaveProperty('account');
    const owned = await t.app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers,
      payload: { name: 'for h', account: 'h@x.test' },
    });
    expect(owned.json()).toMatchObject({ name: 'for h', account: holder.kind === 'account' && holder.account.id });
    const listed = (await t.services.keyAccess.list(holder)).map((k) => k.name);
    expect(listed).toContain('for h');
    expect(listed).not.toContain('ops');
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers,
      payload: { name: 'x', account: 'nobody@x.test' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: { code: '1214', message: expect.stringContaining('account') } });
  });
});
