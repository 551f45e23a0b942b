import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, signIn } from './support.js';

describe('console API on PostgreSQL: accounts, ownership, usage', () => {
  let t: TestApp;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const fresh = await freshSchema();
    drop = fresh.drop;
    t = await createTestApp({
      security: { admin_key: ADMIN_KEY },
      database: { url: DATABASE_URL, schema: fresh.schema },
    });
  });
  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it('keeps each holder to their own keys and counts their usage per day', async () => {
    const admin = await signIn(t.app, { admin_key: ADMIN_KEY });
    const made = await admin.call('POST', '/console/api/accounts', { name: 'Pg Holder', email: 'pg@example.test' });
    const other = await admin.call('POST', '/console/api/accounts', { name: 'Pg Other', email: 'pg2@example.test' });
    const holder = await signIn(t.app, { email: 'pg@example.test', password: made.body['password'] as string });
    const stranger = await signIn(t.app, { email: 'pg2@example.test', password: other.body['password'] as string });

    const created = await holder.call('POST', '/console/api/keys', { name: 'pg-key' });
    const key = created.body['key'] as string;
    const search = await t.post('/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'x' }, key);
    expect(search.status).toBe(200);

    const usage = await holder.call('GET', '/console/api/usage?days=7');
    expect(usage.body['data']).toEqual([
      expect.objectContaining({ key_id: created.body['id'], model: '', requests: 1, errors: 0 }),
    ]);
    const keys = await holder.call('GET', '/console/api/keys');
    expect((keys.body['data'] as { name: string; last_used_at: number | null }[])[0]).toMatchObject({
      name: 'pg-key',
      last_used_at: expect.any(Number),
    });
    expect((await stranger.call('GET', '/console/api/keys')).body['data']).toEqual([]);
    expect((await stranger.call('GET', '/console/api/usage')).body['data']).toEqual([]);
    const revoke = await stranger.call('POST', `/console/api/keys/${created.body['id']}/revoke`);
    expect(revoke.status).toBe(404);
    const byHolder = await holder.call('POST', `/console/api/keys/${created.body['id']}/revoke`);
    expect(byHolder.body).toMatchObject({ status: 'revoked' });
    const refused = await t.post('/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'x' }, key);
    expect(refused.status).toBe(401);
  });
});
