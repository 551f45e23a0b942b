import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, type ConsoleClient, signIn } from './support.js';

describe('console API: sessions, keys and accounts', () => {
  let t: TestApp;
  let admin: ConsoleClient;
  beforeAll(async () => {
    t = await createTestApp({ security: { admin_key: ADMIN_KEY } });
    admin = await signIn(t.app, { admin_key: ADMIN_KEY });
  });
  afterAll(() => t.close());

  it('sets an HttpOnly, SameSite=Strict cookie scoped to /console, Secure only over HTTPS', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { admin_key: ADMIN_KEY } });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^gp_console=[\w-]{40,}; Path=\/console; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(res.json()).toMatchObject({ principal: { kind: 'admin' }, csrf_token: expect.any(String) });
  });

  it('marks the cookie Secure behind an HTTPS proxy (trust_proxy)', async () => {
    const behind = await createTestApp({ security: { admin_key: ADMIN_KEY }, server: { trust_proxy: 1 } });
    try {
      const res = await behind.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: { 'x-forwarded-proto': 'https' },
        payload: { admin_key: ADMIN_KEY },
      });
      expect(String(res.headers['set-cookie'])).toMatch(/; Secure$/);
    } finally {
      await behind.close();
    }
  });

  it('refuses a wrong admin key and every console call without a session', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { admin_key: 'nope' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ error: { code: '1000' } });
    for (const url of ['/console/api/keys', '/console/api/session', '/console/api/usage', '/console/api/accounts']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
    }
    const forged = await admin.call('GET', '/console/api/keys', undefined, { cookie: 'gp_console=forged' });
    expect(forged.status).toBe(401);
  });

  it('creates a key shown once, lists it with its status, and revokes it', async () => {
    const created = await admin.call('POST', '/console/api/keys', {
      name: 'ui key',
      endpoints: ['general', 'coding'],
      limits: { concurrent: 2, requests_per_minute: 30 },
    });
    expect(created.status).toBe(200);
    const key = created.body['key'] as string;
    expect(key).toMatch(/^[^.]+\.[^.]+$/);
    const id = created.body['id'] as string;
    const list = await admin.call('GET', '/console/api/keys');
    const row = (list.body['data'] as Record<string, unknown>[]).find((k) => k['id'] === id)!;
    expect(row).toMatchObject({ name: 'ui key', status: 'active', endpoints: ['general', 'coding'], account_id: null });
    expect(row['limits']).toMatchObject({ concurrent: 2, requests_per_minute: 30 });
    expect(JSON.stringify(list.body)).not.toContain(key.split('.')[1]);
    const revoked = await admin.call('POST', `/console/api/keys/${id}/revoke`);
    expect(revoked.body).toMatchObject({ id, status: 'revoked' });
  });

  it('requires the CSRF token on every state-changing call', async () => {
    for (const csrf of [null, 'wrong-token']) {
      const res = await admin.call('POST', '/console/api/keys', { name: 'x' }, { csrf });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: { code: '1220' } });
      expect(String((res.body['error'] as { message: string }).message)).toContain('CSRF');
    }
    const other = await signIn(t.app, { admin_key: ADMIN_KEY });
    const crossed = await admin.call('POST', '/console/api/keys', { name: 'x' }, { csrf: other.csrf });
    expect(crossed.status).toBe(403);
    const out = await admin.call('DELETE', '/console/api/session', undefined, { csrf: null });
    expect(out.status).toBe(403);
  });

  it('signs out: the cookie is cleared and the session no longer works', async () => {
    const s = await signIn(t.app, { admin_key: ADMIN_KEY });
    const out = await s.call('DELETE', '/console/api/session');
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await s.call('GET', '/console/api/keys')).status).toBe(401);
  });

  it('validates bodies with the API error codes, naming the field', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{}, '1213', /name/],
      [{ name: '' }, '1214', /name/],
      [{ name: 'a', endpoints: ['other'] }, '1214', /endpoints/],
      [{ name: 'a', endpoints: [] }, '1214', /endpoints/],
      [{ name: 'a', limits: { concurrent: -1 } }, '1214', /concurrent/],
      [{ name: 'a', extra: 1 }, '1214', /extra/],
      [{ name: 'a', account_id: 'nobody' }, '1214', /account_id/],
    ];
    for (const [body, code, field] of cases) {
      const res = await admin.call('POST', '/console/api/keys', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ error: { code, message: expect.stringMatching(field) } });
    }
    const accounts: [unknown, string, RegExp][] = [
      [{ name: 'A' }, '1213', /email/],
      [{ name: 'A', email: 'not-an-email' }, '1214', /email/],
    ];
    for (const [body, code, field] of accounts) {
      const res = await admin.call('POST', '/console/api/accounts', body);
      expect(res.body, JSON.stringify(body)).toMatchObject({ error: { code, message: expect.stringMatching(field) } });
    }
    const signIns: [unknown, string, RegExp][] = [
      [{ email: 'a@b.c' }, '1213', /password/],
      [{ password: 'x' }, '1213', /email/],
      [{ admin_key: ADMIN_KEY, email: 'a@b.c' }, '1215', /admin_key/],
    ];
    for (const [body, code, field] of signIns) {
      const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: body as object });
      expect(res.json(), JSON.stringify(body)).toMatchObject({
        error: { code, message: expect.stringMatching(field) },
      });
    }
    const days = await admin.call('GET', '/console/api/usage?days=0');
    expect(days.body).toMatchObject({ error: { code: '1214', message: expect.stringMatching(/days/) } });
  });

  it("changes an account holder's password, ending their other sessions; the admin has none to change", async () => {
    const { password } = await t.services.accounts.createAccount({ name: 'P', email: 'p@example.test' });
    const first = await signIn(t.app, { email: 'p@example.test', password });
    const second = await signIn(t.app, { email: 'P@Example.test', password });
    const short = await first.call('POST', '/console/api/password', {
      current_password: password,
      new_password: 'short',
    });
    expect(short.body).toMatchObject({ error: { code: '1214', message: expect.stringMatching(/new_password/) } });
    const wrong = await first.call('POST', '/console/api/password', {
      current_password: 'not it',
      new_password: 'long enough now',
    });
    expect(wrong.body).toMatchObject({ error: { code: '1214', message: expect.stringMatching(/current_password/) } });
    const ok = await first.call('POST', '/console/api/password', {
      current_password: password,
      new_password: 'long enough now',
    });
    expect(ok.status).toBe(200);
    expect((await first.call('GET', '/console/api/keys')).status).toBe(200);
    expect((await second.call('GET', '/console/api/keys')).status).toBe(401);
    const byAdmin = await admin.call('POST', '/console/api/password', {
      current_password: 'x',
      new_password: 'y'.repeat(10),
    });
    expect(byAdmin.status).toBe(403);
  });

  it('a session opened with a stored admin key ends when that key is revoked', async () => {
    const stored = await t.services.keys.create({ name: 'ops', role: 'admin', endpoints: [] });
    const session = await signIn(t.app, { admin_key: stored.key });
    expect((await session.call('GET', '/console/api/keys')).status).toBe(200);
    await t.services.keys.revoke(stored.record.id);
    expect((await session.call('GET', '/console/api/keys')).status).toBe(401);
    // The configured key's sessions are unaffected.
    expect((await admin.call('GET', '/console/api/keys')).status).toBe(200);
  });

  it('a user key is not an admin key', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { admin_key: t.key } });
    expect(res.statusCode).toBe(401);
  });
});
