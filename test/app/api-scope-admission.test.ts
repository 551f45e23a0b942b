import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { KeyRecord } from '../../src/stores/types.js';
import { withoutEngines } from '../api/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The scope's admission has two paths: a key the store confirmed within the last millisecond and a
 * limiter that counts in memory are taken without a promise; anything else is awaited. Here the
 * first path is forced (checkedNow always answers), so each rule is seen to hold on it too.
 */
describe('api scope: admission without a promise', () => {
  let t: TestApp;
  let coding = '';
  let perMinute = '';
  const records = new Map<string, KeyRecord>();
  const URL = '/paas/v4/chat/completions';
  // Valid credentials, then a body that fails validation: 400 says the admission passed.
  const body = { model: 'gen-4.6', messages: [] };

  beforeAll(async () => {
    t = await createTestApp(withoutEngines());
    const add = async (key: string) => {
      records.set(`Bearer ${key}`, await t.services.keys.authenticate(`Bearer ${key}`));
      return key;
    };
    await add(t.key);
    vi.spyOn(t.services.keys, 'checkedNow').mockImplementation((header) => records.get(header ?? ''));
    coding = await add(await t.newKey({ endpoints: ['coding'] }));
    perMinute = await add(await t.newKey({ limits: { concurrent: 0, requests_per_minute: 1, windows: [] } }));
  });
  afterAll(() => t.close());

  it('takes a confirmed key without asking the store, and records the request under it', async () => {
    const authenticate = vi.spyOn(t.services.keys, 'authenticate');
    const res = await t.post(URL, body);
    expect(res.status).toBe(400);
    expect(authenticate).not.toHaveBeenCalled();
    authenticate.mockRestore();
    await t.services.usage.flush();
    const id = t.key.split('.')[0]!;
    expect((await t.services.store.usageTotals(id)).requests).toBeGreaterThanOrEqual(1);
  });

  it('refuses a key without this endpoint with 1220', async () => {
    const res = await t.post(URL, body, coding);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: { code: '1220' } });
  });

  it('counts per minute like the awaited path: 1303 for the second request', async () => {
    expect((await t.post(URL, body, perMinute)).status).toBe(400);
    const second = await t.post(URL, body, perMinute);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({ error: { code: '1303' } });
  });

  it('falls back to the awaited path for a value it has not confirmed', async () => {
    const res = await t.post(URL, body, 'not-a-key.secret');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: '1002' } });
  });
});
