import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A model the server does not serve is 404 on the Responses API, as on OpenAI's (its SDK raises
 * NotFoundError): type `invalid_request_error`, code `model_not_found`. This API's own routes keep
 * 400 / 1211.
 */
describe('Responses API: an unknown model', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      models: {
        'gen-4.6': { deployments: [{ engine: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'x' }] },
      },
    });
  });
  afterAll(() => t?.close());

  it('answers 404 model_not_found in OpenAI’s shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/responses',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      payload: { model: 'gen-unknown', input: 'Hi' },
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'model_not_found', param: 'model' },
    });
  });

  it('keeps 400 / 1211 on this API’s own chat route', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/paas/v4/chat/completions',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      payload: { model: 'gen-unknown', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 1211 });
  });
});
