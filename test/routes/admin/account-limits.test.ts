import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY } from '../console/support.js';

const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/**
 * Limits per account: three server instances on one PostgreSQL and one Redis (as three processes
 * share them), four keys of one account, held together to the account's concurrency; the account's
 * model allowlist narrows its keys'; the cap on keys per account.
 */
describe('per-account limits across instances on PostgreSQL + Redis', () => {
  const apps: TestApp[] = [];
  let upstream: SlowUpstream;
  let drop: () => Promise<void>;
  let accountId: string;
  const keys: string[] = [];

  beforeAll(async () => {
    upstream = await startSlowUpstream({ chunks: 10, delayMs: 80 });
    const fresh = await freshSchema();
    drop = fresh.drop;
    const prefix = `gov-${randomBytes(4).toString('hex')}:`;
    const config = {
      security: { admin_key: ADMIN_KEY },
      ...upstreamModels(upstream.baseUrl),
      database: { url: DATABASE_URL, schema: fresh.schema },
      redis: { url: REDIS_URL, prefix },
      accounts: { concurrent: 2, max_keys: 4 },
    };
    for (let i = 0; i < 3; i++) apps.push(await createTestApp(config));
    const admin = { authorization: `Bearer ${ADMIN_KEY}` };
    const { account } = await apps[0]!.services.accounts.createAccount({ name: 'Team', email: 'team@example.test' });
    accountId = account.id;
    for (let i = 0; i < 4; i++) {
      const res = await apps[i % 3]!.app.inject({
        method: 'POST',
        url: '/admin/keys',
        headers: admin,
        payload: { name: `team-${i}`, account: accountId },
      });
      expect(res.statusCode, res.body).toBe(200);
      keys.push((res.json() as { key: string }).key);
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await upstream?.close();
    await drop?.();
  });

  it("holds 4 keys of one account, spread over 3 instances, to the account's concurrency", async () => {
    const calls = [];
    for (let i = 0; i < 12; i++) {
      const app = apps[i % 3]!;
      calls.push(
        app.post(
          '/paas/v4/chat/completions',
          { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] },
          keys[i % 4]!,
        ),
      );
    }
    const replies = await Promise.all(calls);
    const codes = replies.map((r) => (r.status === 200 ? 200 : (r.body['code'] as number)));
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 1302)).toHaveLength(10);
    for (const refused of replies.filter((r) => r.status !== 200))
      expect(refused.body['message']).toBe('Too many concurrent requests: this account allows 2 at a time');
    // Another key (the admin's, no account) is not held by the account's count.
    const other = await apps[1]!.post('/paas/v4/chat/completions', {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(other.status).toBe(200);
  });

  it("holds every key to the account's model allowlist, and caps the keys per account", async () => {
    await apps[0]!.services.accountPolicies.set(accountId, { models: ['gen-4.5*'] });
    const refused = await apps[0]!.post(
      '/paas/v4/chat/completions',
      { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] },
      keys[0]!,
    );
    expect(refused.body).toMatchObject({ code: 1220, message: expect.stringContaining('its account') });
    await apps[0]!.services.accountPolicies.set(accountId, undefined);
    const fifth = await apps[2]!.app.inject({
      method: 'POST',
      url: '/admin/keys',
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
      payload: { name: 'team-5', account: accountId },
    });
    expect(fifth.statusCode).toBe(403);
    expect(fifth.json()).toMatchObject({ code: 1220, message: expect.stringContaining('cap') });
  });
});
