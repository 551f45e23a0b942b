import { afterEach, describe, expect, it } from 'vitest';
import { legacyHash } from '../../helpers/legacy-hash.js';
import { freshPrefix, REDIS_URL } from '../../helpers/redis.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, signIn } from './support.js';

/**
 * Console sign-in under attack: attempts slow down rather than lock the account, the
 * client address is taken from configured proxies only, hashing is capped, limits live in Redis
 * when it is configured, and old password hashes are upgraded at the next sign-in.
 */

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
async function app(overrides: Record<string, unknown> = {}) {
  const t = await createTestApp({ security: { admin_key: ADMIN_KEY }, ...overrides });
  apps.push(t);
  return t;
}
const post = (t: TestApp, payload: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/console/api/session', payload, headers });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('console sign-in under attack', () => {
  it('slows down after the free failures (429 with Retry-After), and the holder still signs in after the wait', async () => {
    const t = await app({ console: { sign_in_attempts: 1 } });
    const { password } = await t.services.accounts.createAccount({ name: 'Ada', email: 'ada@example.test' });
    expect((await post(t, { email: 'ada@example.test', password: 'guess' })).statusCode).toBe(401);
    const slowed = await post(t, { email: 'ada@example.test', password });
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.json()).toMatchObject({ code: 1303 });
    await sleep(1100);
    expect((await post(t, { email: 'ada@example.test', password })).statusCode).toBe(200);
  });

  it('the wait doubles per failure up to console.sign_in_max_delay_seconds, never a lockout', async () => {
    const t = await app({ console: { sign_in_attempts: 1, sign_in_max_delay_seconds: 2 } });
    await t.services.accounts.createAccount({ name: 'Bo', email: 'bo@example.test' });
    const waits: string[] = [];
    for (let i = 0; i < 4; i++) {
      expect((await post(t, { email: 'bo@example.test', password: `guess-${i}` })).statusCode).toBe(401);
      const res = await post(t, { email: 'bo@example.test', password: 'x' });
      waits.push(String(res.headers['retry-after']));
      await sleep(Number(res.headers['retry-after']) * 1000 + 50);
    }
    expect(waits).toEqual(['1', '2', '2', '2']);
  }, 60_000);

  it('takes the client address from X-Forwarded-For only when the peer is a configured proxy', async () => {
    // Five failures per address are free at sign_in_attempts 1; the sixth attempt waits.
    const spread = async (t: TestApp) => {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await post(t, { admin_key: 'wrong-admin-key-000' }, { 'x-forwarded-for': `203.0.113.${i}` });
        statuses.push(res.statusCode);
      }
      return statuses;
    };
    const trusting = await app({ console: { sign_in_attempts: 1 }, server: { trust_proxy: ['127.0.0.1'] } });
    expect(await spread(trusting)).toEqual(Array(7).fill(401));
    const direct = await app({ console: { sign_in_attempts: 1 } });
    expect((await spread(direct)).slice(5)).toEqual([429, 429]);
    const otherProxy = await app({ console: { sign_in_attempts: 1 }, server: { trust_proxy: ['10.0.0.0/8'] } });
    expect((await spread(otherProxy)).slice(5)).toEqual([429, 429]);
  });

  it('hashes at most console.hash_concurrency passwords at once; past console.hash_queue: 503 1305', async () => {
    const t = await app({ console: { hash_concurrency: 1, hash_queue: 0 } });
    await t.services.accounts.createAccount({ name: 'Cy', email: 'cy@example.test' });
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => post(t, { email: `cy${i}@example.test`, password: 'x' })),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toContain(503);
    const refused = answers.find((a) => a.statusCode === 503)!;
    expect(refused.json()).toMatchObject({ code: 1305 });
    expect(refused.headers['retry-after']).toBe('1');
  });

  it('replaces a hash made with the old parameters at the next sign-in, keeping other sessions', async () => {
    const t = await app();
    const { account } = await t.services.accounts.createAccount({ name: 'Di', email: 'di@example.test' });
    await t.services.store.accounts.setPasswordHash(account.id, legacyHash('old but right'));
    const first = await signIn(t.app, { email: 'di@example.test', password: 'old but right' });
    expect((await t.services.store.accounts.getAccount(account.id))!.passwordHash).toMatch(/^scrypt\$65536\$8\$2\$/);
    // The first session survives the upgrade; the new hash verifies the same password.
    expect((await first.call('GET', '/console/api/session')).status).toBe(200);
    await signIn(t.app, { email: 'di@example.test', password: 'old but right' });
  });

  it('keeps the sign-in counts in Redis when redis.url is set: another process sees them', async () => {
    const redis = { url: REDIS_URL, prefix: freshPrefix() };
    const one = await app({ redis, console: { sign_in_attempts: 1 } });
    const two = await app({ redis, console: { sign_in_attempts: 1 } });
    await one.services.accounts.createAccount({ name: 'Ed', email: 'ed@example.test' });
    expect((await post(one, { email: 'ed@example.test', password: 'guess' })).statusCode).toBe(401);
    const second = await post(two, { email: 'ed@example.test', password: 'guess' });
    // Within the 1 s back-off the other process refuses, which only the shared count can make it
    // do; on a machine so loaded that the second attempt came later, the shared count shows both
    // attempts (not one per process).
    expect([401, 429]).toContain(second.statusCode);
    if (second.statusCode === 401) {
      const { Redis } = await import('ioredis');
      const client = new Redis(REDIS_URL);
      try {
        expect(await client.hget(`${redis.prefix}sign-in:account:ed@example.test`, 'n')).toBe('2');
      } finally {
        client.disconnect();
      }
    }
  });
});
