import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('POST /paas/v4/web_search', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.services.search.index.upsert([
      {
        url: 'https://www.energy.example.com/tidal',
        title: 'Tidal turbines in Orkney',
        content: 'Tidal turbines feed power ashore.',
        published: '2025-01-02',
      },
      {
        url: 'https://news.example.org/solar',
        title: 'Solar farms',
        content: 'Solar panels supply power to cities.',
        site: 'Example News',
      },
    ]);
  });
  afterAll(() => t.close());

  it('answers the envelope with entries in rank order', async () => {
    const res = await t.post('/paas/v4/web_search', {
      search_engine: 'search-prime',
      search_query: 'tidal turbines',
      request_id: 'search-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ request_id: 'search-1' });
    expect(res.body['search_result']).toEqual([
      {
        title: 'Tidal turbines in Orkney',
        content: expect.stringContaining('Tidal'),
        link: 'https://www.energy.example.com/tidal',
        media: 'energy.example.com',
        icon: 'https://www.energy.example.com/favicon.ico',
        refer: 'ref_1',
        publish_date: '2025-01-02',
      },
    ]);
  });

  it.each(['search_std', 'search_pro', 'search_pro_sogou', 'search_pro_quark', 'search_pro_jina'])(
    'accepts the live engine name %s as an alias',
    async (engine) => {
      const res = await t.post('/paas/v4/web_search', { search_engine: engine, search_query: 'power' });
      expect(res.status).toBe(200);
      expect((res.body['search_result'] as unknown[]).length).toBe(2);
    },
  );

  it('refuses an engine that is neither an alias nor configured', async () => {
    const res = await t.post('/paas/v4/web_search', { search_engine: 'bing', search_query: 'power' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1211 });
    expect(res.body['message']).toContain('search_engine');
  });

  it('answers an empty list when nothing matches', async () => {
    const res = await t.post('/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'zzqx' });
    expect(res.body['search_result']).toEqual([]);
  });
});
