import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('/admin under a key-guessing client', () => {
  it('answers repeated failed keys from one address with 429 (1303) and Retry-After; other addresses are untouched', async () => {
    const admin = 'admin-key-for-failed-keys-0123456789';
    t = await createTestApp({ security: { admin_key: admin }, console: { sign_in_attempts: 2 } });
    const get = (key: string, remoteAddress: string) =>
      t!.app.inject({ method: 'GET', url: '/admin/keys', headers: { authorization: `Bearer ${key}` }, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push((await get(`wrong-${i}.secret`, '203.0.113.9')).statusCode);
    // 5 × console.sign_in_attempts free failures per address, then a wait.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    // The rest wait too: a try now and then once a back-off (1 s, 2 s, 4 s …) has passed, no more.
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(13);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    const refused = await get('wrong.secret', '203.0.113.9');
    expect(refused.json()).toMatchObject({ code: 1303 });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(admin, '198.51.100.4')).statusCode).toBe(200);
  });
});
