import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/routes/all-operations.js';
import { withoutEngines } from '../api/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The live platform's hosts serve its bases under `/api` too: every operation of `/paas/v4` and
 * `/coding/paas/v4` (the agents aliases under them included) answers at the same path under `/api`,
 * with no code of its own.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

const MOUNTS: Record<string, string[]> = {
  paas: ['/paas/v4', '/coding/paas/v4'],
  agents: ['/paas/v4/v1', '/coding/paas/v4/v1'],
};

it('every operation of the paas bases has its /api twin', () => {
  let checked = 0;
  for (const op of ALL_OPERATIONS) {
    for (const base of MOUNTS[op.base] ?? []) {
      const url = `${base}${op.path}`;
      expect(t.app.hasRoute({ method: op.method, url }), url).toBe(true);
      expect(t.app.hasRoute({ method: op.method, url: `/api${url}` }), `/api${url}`).toBe(true);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(10);
  // `/v1` is the OpenAI-style base of this server, not one of the live platform's: no `/api/v1`.
  expect(t.app.hasRoute({ method: 'POST', url: '/api/v1/agents' })).toBe(false);
});

it('the /api form answers as the plain one does, with the same endpoint rule', async () => {
  const codingKey = await t.newKey({ endpoints: ['coding'] });
  const body = { model: 'gen-4.6', messages: [{ role: 'user', content: 'Hello' }] };
  const plain = await t.post('/coding/paas/v4/chat/completions', body, codingKey);
  const aliased = await t.post('/api/coding/paas/v4/chat/completions', body, codingKey);
  expect(aliased.status).toBe(plain.status);
  expect(aliased.body['code']).toBe(plain.body['code']);
  const wrong = await t.post('/api/coding/paas/v4/chat/completions', body, t.key);
  expect(wrong.status).toBe(403);
  expect(wrong.body['code']).toBe(1220);
});

it('the /api forms stay out of the OpenAPI document', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, unknown>;
  };
  expect(Object.keys(doc.paths).some((p) => p.startsWith('/api/paas'))).toBe(false);
  expect(Object.keys(doc.paths)).toContain('/paas/v4/chat/completions');
});
