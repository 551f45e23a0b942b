import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const URL = '/api/monitor/usage/quota/limit';

describe('GET /api/monitor/usage/quota/limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.services.search.index.upsert([{ url: 'https://a.example.com/x', title: 'Tides', content: 'Tides.' }]);
  });
  afterAll(() => t.close());

  const query = async (authorization?: string) => {
    const res = await t.app.inject({ method: 'GET', url: URL, headers: authorization ? { authorization } : {} });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };

  it('answers each of the key’s windows in the live envelope, from its own usage', async () => {
    const key = await t.newKey({
      limits: {
        concurrent: 0,
        requests_per_minute: 0,
        windows: [
          { requests: 10, hours: 5 },
          { requests: 100, hours: 168 },
        ],
      },
    });
    for (let i = 0; i < 3; i++) {
      const res = await t.post('/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'tides' }, key);
      expect(res.status).toBe(200);
    }
    // Per-tool details come from the stored records (the window counts also those not yet written).
    await t.services.usage.flush();
    const before = Date.now();
    // A bare key (as plan-tracking tools send it) and a Bearer key both work.
    const { status, body } = await query(key);
    expect(status).toBe(200);
    expect((await query(`Bearer ${key}`)).status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true, data: { level: 'custom' } });
    const limits = (body['data'] as { limits: Record<string, unknown>[] }).limits;
    expect(limits).toHaveLength(2);
    expect(limits[0]).toMatchObject({
      type: 'TOKENS_LIMIT',
      unit: 3,
      number: 5,
      usage: 10,
      currentValue: 3,
      remaining: 7,
      percentage: 30,
      usageDetails: [
        { modelCode: 'search-prime', usage: 3 },
        { modelCode: 'web-reader', usage: 0 },
      ],
    });
    expect(limits[0]!['nextResetTime']).toBeGreaterThan(before);
    expect(limits[0]!['nextResetTime']).toBeLessThanOrEqual(before + 5 * 3_600_000);
    expect(limits[1]).toMatchObject({ type: 'TOKENS_LIMIT', unit: 6, number: 1, usage: 100, currentValue: 3 });
    // Reading the quota spends none of it.
    const again = await query(key);
    expect((again.body['data'] as { limits: { currentValue: number }[] }).limits[0]!.currentValue).toBe(3);
  });

  it('has no entries for a key without windows, and needs a key', async () => {
    const { status, body } = await query(`Bearer ${t.key}`);
    expect(status).toBe(200);
    expect((body['data'] as { limits: unknown[] }).limits).toEqual([]);
    expect((await query()).status).toBe(401);
    expect((await query('Bearer nope.nope')).status).toBe(401);
  });
});
