import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshPrefix, REDIS_URL } from '../../helpers/redis.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/** Every password check, with the hash it was checked against. */
const checks = vi.hoisted(() => [] as string[]);
vi.mock('../../../src/services/accounts/passwords.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../src/services/accounts/passwords.js')>();
  return {
    ...original,
    verifyPassword: (password: string, stored: string) => {
      checks.push(stored);
      return original.verifyPassword(password, stored);
    },
  };
});

/**
 * 60 concurrent wrong passwords for one account: each attempt is counted before its hash, in one
 * step with the check (in Redis when it is configured), so only the free failures are hashed and
 * the rest are refused at once; another account's holder signs in meanwhile. (Counted after the
 * hash, all 60 were hashed and answered 401, and the burst filled the hash gate.)
 */
const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

const ATTEMPTS = 2; // console.sign_in_attempts: per account and address; ×5 per account, ×5 per address

for (const backend of ['in process', 'redis'] as const) {
  describe(`console sign-in burst (${backend})`, () => {
    async function setUp(attempts = ATTEMPTS) {
      const redis = backend === 'redis' ? { redis: { url: REDIS_URL, prefix: freshPrefix() } } : {};
      const t = await createTestApp({ console: { sign_in_attempts: attempts }, ...redis });
      apps.push(t);
      const victim = await t.services.accounts.createAccount({ name: 'Vic', email: 'vic@example.test' });
      const other = await t.services.accounts.createAccount({ name: 'Oz', email: 'oz@example.test' });
      checks.length = 0;
      const signIn = (email: string, password: string, remoteAddress: string) =>
        t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password }, remoteAddress });
      return { t, victim, other, signIn };
    }

    const tally = (answers: { statusCode: number; json(): unknown }[]) => {
      const refused = answers.filter((a) => a.statusCode === 429);
      for (const r of refused) expect(r.json()).toMatchObject({ code: 1303 });
      return { unauthorized: answers.filter((a) => a.statusCode === 401).length, refused: refused.length };
    };

    it('from one address: only the pair’s free failures are hashed, the other 58 refused before hashing', async () => {
      const { victim, other, signIn } = await setUp();
      const burst = Array.from({ length: 60 }, (_, i) => signIn('vic@example.test', `guess-${i}`, '203.0.113.7'));
      const holder = signIn('oz@example.test', other.password, '198.51.100.2');
      const answers = await Promise.all(burst);
      expect((await holder).statusCode).toBe(200);
      expect(tally(answers)).toEqual({ unauthorized: ATTEMPTS, refused: 60 - ATTEMPTS });
      expect(checks.filter((h) => h === victim.account.passwordHash)).toHaveLength(ATTEMPTS);
    }, 60_000);

    it('from 60 addresses: only the account’s free failures (5 × console.sign_in_attempts) are hashed', async () => {
      const { victim, other, signIn } = await setUp(1);
      const burst = Array.from({ length: 60 }, (_, i) => signIn('vic@example.test', `guess-${i}`, `192.0.2.${i + 1}`));
      const holder = signIn('oz@example.test', other.password, '198.51.100.2');
      const answers = await Promise.all(burst);
      expect((await holder).statusCode).toBe(200);
      expect(tally(answers)).toEqual({ unauthorized: 5, refused: 55 });
      expect(checks.filter((h) => h === victim.account.passwordHash)).toHaveLength(5);
    }, 60_000);
  });
}
