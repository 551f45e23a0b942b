import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../../src/cli/keys.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, signIn } from '../console/support.js';

type Row = Record<string, unknown> & { action: string; actor: string; address: string | null };

/**
 * The audit log over the API: every administrative act that exists lands in it with who, when, from
 * where, what, before and after, and `GET /admin/audit` filters it; no call changes a record.
 */
describe('audit log: acts recorded and read back', () => {
  let t: TestApp;
  const admin = { authorization: `Bearer ${ADMIN_KEY}` };
  const audit = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/admin/audit${query}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: Row[] }).data;
  };
  beforeAll(async () => {
    t = await createTestApp({ security: { admin_key: ADMIN_KEY } });
  });
  afterAll(() => t.close());

  it('records a key made and revoked over /admin with the admin key, the address and before/after', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers: admin,
      remoteAddress: '198.51.100.20',
      payload: { name: 'ci', endpoints: ['general'] },
    });
    expect(made.statusCode).toBe(200);
    const { id, key } = made.json() as { id: string; key: string };
    await t.app.inject({ method: 'DELETE', url: `/admin/keys/${id}`, headers: admin, remoteAddress: '198.51.100.21' });
    const rows = await audit(`?target=key:${id}`);
    expect(rows.map((r) => r.action)).toEqual(['key.revoke', 'key.create']);
    expect(rows[1]).toMatchObject({
      actor: 'key:admin',
      address: '198.51.100.20',
      target: `key:${id}`,
      before: null,
      after: { id, name: 'ci', endpoints: ['general'], revoked_at: null, account: null },
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(rows[0]).toMatchObject({
      address: '198.51.100.21',
      before: { revoked_at: null },
      after: { revoked_at: expect.any(Number) },
    });
    const secret = key.split('.')[1]!;
    expect(JSON.stringify(await audit())).not.toContain(secret);
  });

  it('records console sign-ins, failed sign-ins, accounts made and disabled, and password changes', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/console/api/session',
      payload: { admin_key: 'not-the-admin-key-1234' },
      remoteAddress: '203.0.113.5',
    });
    const console = await signIn(t.app, { admin_key: ADMIN_KEY });
    const made = await console.call('POST', '/console/api/accounts', { name: 'Ada', email: 'ada@example.test' });
    const { id: accountId, password } = made.body as { id: string; password: string };
    const ada = await signIn(t.app, { email: 'ada@example.test', password });
    await t.app.inject({
      method: 'POST',
      url: '/console/api/session',
      payload: { email: 'ada@example.test', password: 'guess-9f3k2x' },
    });
    const changed = await ada.call('POST', '/console/api/password', {
      current_password: password,
      new_password: 'a-much-longer-password',
    });
    expect(changed.status).toBe(200);
    const key = await ada.call('POST', '/console/api/keys', { name: 'ada key' });
    await console.call('POST', `/console/api/accounts/${accountId}/disable`);

    const rows = await audit();
    const actions = rows.map((r) => `${r.action} ${r.actor}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'session.sign_in_failed anonymous',
        'session.sign_in key:admin',
        'account.create key:admin',
        `session.sign_in account:${accountId}`,
        `account.password_change account:${accountId}`,
        `key.create account:${accountId}`,
        'account.disable key:admin',
      ]),
    );
    const failed = rows.find((r) => r.action === 'session.sign_in_failed' && r.address === '203.0.113.5')!;
    expect(failed.after).toEqual({ method: 'admin_key', reason: 'invalid key' });
    expect(
      rows.find((r) => r.target === 'email:ada@example.test' || r.target === `account:${accountId}`),
    ).toBeDefined();
    const disabled = rows.find((r) => r.action === 'account.disable')!;
    expect(disabled).toMatchObject({
      target: `account:${accountId}`,
      before: { disabled_at: null },
      after: { disabled_at: expect.any(Number), revoked_keys: [key.body['id']] },
    });
    // No password, no key, no cookie anywhere in the log.
    const text = JSON.stringify(rows);
    for (const secret of [password, 'a-much-longer-password', 'guess-9f3k2x', ADMIN_KEY, 'not-the-admin-key-1234']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain((key.body['key'] as string).split('.')[1]);
    expect(text).not.toContain(console.cookie.split('=')[1]);
  });

  it('records the CLI as the operating-system user, from no address', async () => {
    const out: string[] = [];
    const code = await keysCommand(['create', '--name', 'from-cli'], {
      cwd: t.dataDir,
      vars: { GEN_PLATFORM_DATA: t.dataDir, GEN_PLATFORM_ADMIN_KEY: ADMIN_KEY },
      out: (l) => out.push(l),
      err: () => {},
    });
    expect(code).toBe(0);
    const [row] = await audit('?action=key.create&limit=1');
    expect(row).toMatchObject({ actor: expect.stringMatching(/^cli:/), address: null, after: { name: 'from-cli' } });
    expect(JSON.stringify(row)).not.toContain(out.at(-1)!.split('.')[1]);
  });

  it('filters by action (and prefix), actor and time, newest first, and pages with before', async () => {
    const all = await audit();
    expect(all.map((r) => r['id'])).toEqual([...all.map((r) => r['id'] as number)].sort((a, b) => b - a));
    expect((await audit('?action=key.*')).every((r) => r.action.startsWith('key.'))).toBe(true);
    expect((await audit('?actor=key:admin')).every((r) => r.actor === 'key:admin')).toBe(true);
    const future = Math.floor(Date.now() / 1000) + 3600;
    expect(await audit(`?since=${future}`)).toEqual([]);
    expect((await audit('?since=2020-01-01T00:00:00Z')).length).toBe(all.length);
    const newest = Date.parse(all[0]!['at'] as string);
    const justAfter = new Date(newest + 1000).toISOString().slice(0, 19);
    // The same instant written with another offset selects the same records.
    const shifted = new Date(newest + 1000 + 8 * 3_600_000).toISOString().slice(0, 19);
    expect(await audit(`?since=${justAfter}Z`)).toEqual([]);
    expect(await audit(`?since=${encodeURIComponent(`${shifted}+08:00`)}`)).toEqual([]);
    expect((await audit(`?until=${encodeURIComponent(`${shifted}+08:00`)}`)).length).toBe(all.length);
    const page = await audit('?limit=2');
    expect(page).toHaveLength(2);
    expect((await audit(`?limit=2&before=${page[1]!['id']}`))[0]!['id']).toBe(all[2]!['id']);
  });

  it('refuses bad queries with 1214 naming the field, other keys with 1220, and any write with 404', async () => {
    for (const [query, field] of [
      ['?since=yesterday', 'since'],
      ['?limit=0', 'limit'],
      ['?limit=5000', 'limit'],
      ['?until=2026-13-45T99', 'until'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/admin/audit${query}`, headers: admin });
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: 1214, message: expect.stringContaining(field) });
    }
    // A time without an offset would be read in the server's own time zone: refused, naming the rule.
    for (const [query, field] of [
      ['?since=2026-05-01T00:00:00', 'since'],
      ['?until=2026-05-01%2000:00', 'until'],
      ['?since=2026-05-01', 'since'],
      ['?until=2026-02-30T00:00:00Z', 'until'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url: `/admin/audit${query}`, headers: admin });
      expect(res.statusCode, query).toBe(400);
      const body = res.json() as { code: number; message: string };
      expect(body.code, query).toBe(1214);
      expect(body.message, query).toContain(field);
      expect(body.message, query).toContain('RFC 3339 time with an offset or Z');
    }
    const user = await t.app.inject({
      method: 'GET',
      url: '/admin/audit',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(user.statusCode).toBe(403);
    expect(user.json()).toMatchObject({ code: 1220 });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/admin/audit', headers: admin, payload: {} });
      expect(res.statusCode, method).toBe(404);
    }
  });

  it('shows the admin the same log in the console, and no one else', async () => {
    const console = await signIn(t.app, { admin_key: ADMIN_KEY });
    const res = await console.call('GET', '/console/api/audit?action=account.*');
    expect(res.status).toBe(200);
    expect((res.body['data'] as Row[]).map((r) => r.action)).toEqual([
      'account.disable',
      'account.password_change',
      'account.create',
    ]);
    const made = await console.call('POST', '/console/api/accounts', { name: 'Bo', email: 'bo@example.test' });
    const bo = await signIn(t.app, { email: 'bo@example.test', password: made.body['password'] as string });
    expect((await bo.call('GET', '/console/api/audit')).status).toBe(403);
  });

  it("takes the Audit page's filters in the console: actor, action, a UTC range, paging; a bad time is 1214", async () => {
    const console = await signIn(t.app, { admin_key: ADMIN_KEY });
    const until = new Date(Date.now() + 120_000).toISOString().slice(0, 16);
    const query = new URLSearchParams({
      actor: 'key:admin',
      action: 'account.*',
      since: '2020-01-01T00:00:00Z',
      until: `${until}:00Z`,
      limit: '2',
    });
    const first = await console.call('GET', `/console/api/audit?${query}`);
    expect(first.status).toBe(200);
    const rows = first.body['data'] as Row[];
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.actor === 'key:admin' && r.action.startsWith('account.'))).toBe(true);
    query.set('before', String(rows[1]!['id']));
    const next = (await console.call('GET', `/console/api/audit?${query}`)).body['data'] as Row[];
    expect(next.length).toBeGreaterThan(0);
    expect(next.every((r) => (r['id'] as number) < (rows[1]!['id'] as number))).toBe(true);
    query.set('until', '2020-01-01T00:00:00Z');
    expect((await console.call('GET', `/console/api/audit?${query}`)).body['data']).toEqual([]);
    const bad = await console.call('GET', '/console/api/audit?since=tomorrow');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('1214');
    expect(JSON.stringify(bad.body)).toContain('since');
  });
});
