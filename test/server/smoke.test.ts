import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('server basics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers /health without a key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
  });

  it('serves an OpenAPI 3.1 document listing every operation', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.paths);
    for (const p of [
      '/paas/v4/tokenizer',
      '/paas/v4/chat/completions',
      '/paas/v4/images/generations',
      '/paas/v4/async/images/generations',
      '/paas/v4/async-result/{id}',
      '/v1/agents',
      '/v1/agents/conversation',
      '/paas/v4/reader',
      '/paas/v4/web_search',
      '/admin/keys',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('renders the reference page at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger-ui');
  });

  it('answers an unknown path or method with 1222', async () => {
    for (const [method, url] of [
      ['POST', '/paas/v4/nothing'],
      ['GET', '/paas/v4/chat/completions'],
      ['DELETE', '/v1/agents'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { authorization: `Bearer ${t.key}` } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 1222, error: { code: '1222' } });
    }
  });
});
