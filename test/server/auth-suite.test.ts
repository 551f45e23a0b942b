import { createHmac } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_OPERATIONS } from '../../src/routes/all-operations.js';
import type { Operation } from '../../src/routes/operation.js';
import type { Endpoint } from '../../src/stores/types.js';
import {
  type Body,
  EXAMPLES,
  expectAccepted,
  type OperationExample,
  type PassCode,
  withoutEngines,
} from '../api/support.js';
import { expectErrorCode } from '../helpers/error-shapes.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The shared auth suite (docs/architecture.md, "Conventions"): every route of every operation, on every base it is
 * mounted on, through missing, malformed, wrong, revoked and out-of-scope credentials, and the
 * JWT forms the official SDKs send; then the admin routes.
 */

interface Route {
  label: string;
  method: Operation['method'];
  url: string;
  endpoint: Endpoint;
  body: Body | undefined;
  /** What a request with valid credentials answers here (validation passed, no engine configured). */
  passCodes: readonly PassCode[];
}

/** Where each group of operations is mounted (src/app/app.ts): base, endpoint. */
const BASES: Record<Operation['base'], [string, Endpoint][]> = {
  paas: [
    ['/paas/v4', 'general'],
    ['/coding/paas/v4', 'coding'],
    ['/api/paas/v4', 'general'],
    ['/api/coding/paas/v4', 'coding'],
  ],
  agents: [
    ['/v1', 'general'],
    ['/paas/v4/v1', 'general'],
    ['/coding/paas/v4/v1', 'coding'],
    ['/api/paas/v4/v1', 'general'],
    ['/api/coding/paas/v4/v1', 'coding'],
  ],
  anthropic: [
    ['/anthropic/v1', 'coding'],
    ['/api/anthropic/v1', 'coding'],
  ],
};

const examplesByOperation = new Map<string, OperationExample>(Object.values(EXAMPLES).map((e) => [e.name, e]));

const ROUTES: Route[] = ALL_OPERATIONS.flatMap((op) =>
  BASES[op.base].map(([base, endpoint]): Route => {
    const url = base + op.path.replace(':id', '20260101000000abcdefabcdefabcd');
    const example = examplesByOperation.get(op.id);
    if (op.method === 'POST' && !example) throw new Error(`no example body for ${op.id}`);
    return {
      label: `${op.method} ${url}`,
      method: op.method,
      url,
      endpoint,
      body: example?.body,
      // A GET without an example: task polling answers 1233 for an unknown id; a list answers 200.
      passCodes: example?.passCodes ?? (op.path.includes(':id') ? [1233] : [200]),
    };
  }),
);

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An HS256 token as the official SDKs build it: `sign_type: SIGN`, `api_key`, ms times. */
function sdkJwt(key: string, payload: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  const [id, secret] = key.split('.') as [string, string];
  const now = Date.now();
  const head = b64url({ alg: 'HS256', sign_type: 'SIGN', ...header });
  const body = b64url({ api_key: id, exp: now + 3_600_000, timestamp: now, ...payload });
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

let t: TestApp;
let revokedKey: string;
let codingKey: string;
let bothKey: string;
const CONFIGURED_ADMIN_KEY = 'configured-admin-key-0123456789';

beforeAll(async () => {
  t = await createTestApp(withoutEngines({ security: { admin_key: CONFIGURED_ADMIN_KEY } }));
  revokedKey = await t.newKey({ endpoints: ['general', 'coding'] });
  await t.services.keys.revoke(revokedKey.split('.')[0]!);
  codingKey = await t.newKey({ endpoints: ['coding'] });
  bothKey = await t.newKey({ endpoints: ['general', 'coding'] });
});
afterAll(() => t.close());

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
}

async function send(route: Pick<Route, 'method' | 'url' | 'body'>, authorization: string | undefined): Promise<Answer> {
  const options: InjectOptions = {
    method: route.method,
    url: route.url,
    headers: {
      ...(route.body ? { 'content-type': 'application/json' } : {}),
      ...(authorization === undefined ? {} : { authorization }),
    },
    ...(route.body ? { payload: JSON.stringify(route.body) } : {}),
  };
  const res = await t.app.inject(options);
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
}

function expectRefused(res: Answer, code: number, status: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expectErrorCode(res.body, status, code);
  expect(res.headers['x-should-retry']).toBe('false');
}

function expectPassed(res: Answer, route: Route): void {
  expectAccepted(res, route.passCodes);
}

/** A key of the route's own endpoint. */
const keyFor = (route: Route) => (route.endpoint === 'general' ? t.key : codingKey);

it('covers every operation on every base', () => {
  expect(ROUTES.length).toBe(
    ALL_OPERATIONS.filter((o) => o.base === 'paas').length * 4 +
      ALL_OPERATIONS.filter((o) => o.base === 'agents').length * 5 +
      ALL_OPERATIONS.filter((o) => o.base === 'anthropic').length * 2,
  );
  const urls = ROUTES.map((r) => r.url);
  for (const url of [
    '/paas/v4/chat/completions',
    '/coding/paas/v4/chat/completions',
    '/paas/v4/async-result/20260101000000abcdefabcdefabcd',
    '/coding/paas/v4/async-result/20260101000000abcdefabcdefabcd',
    '/v1/agents',
    '/v1/agents/conversation',
    '/paas/v4/v1/agents',
    '/paas/v4/v1/agents/conversation',
    '/coding/paas/v4/v1/agents',
    '/api/paas/v4/chat/completions',
    '/api/coding/paas/v4/chat/completions',
    '/api/coding/paas/v4/async-result/20260101000000abcdefabcdefabcd',
    '/api/coding/paas/v4/v1/agents',
    '/anthropic/v1/messages',
    '/api/anthropic/v1/messages',
    '/api/anthropic/v1/messages/count_tokens',
  ]) {
    expect(urls).toContain(url);
  }
});

describe.each(ROUTES)('$label', (route) => {
  it('valid key of its endpoint passes', async () => {
    expectPassed(await send(route, `Bearer ${keyFor(route)}`), route);
  });

  it('a key with both endpoints passes', async () => {
    expectPassed(await send(route, `Bearer ${bothKey}`), route);
  });

  it('missing Authorization → 401 1001', async () => {
    expectRefused(await send(route, undefined), 1001, 401);
  });

  it('empty Bearer → 401 1001', async () => {
    expectRefused(await send(route, 'Bearer '), 1001, 401);
  });

  it.each([
    ['nope', 'nope'],
    ['a.b', 'a.b'],
    ['a.b.c', 'a.b.c'],
    ['four parts', 'a.b.c.d'],
    ['garbage JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJub3RoaW5nIjoxfQ.c2lnbmF0dXJl'],
    ['JWT with alg none', `${b64url({ alg: 'none' })}.${b64url({ api_key: 'x', exp: Date.now() + 1e6 })}.`],
    [
      'JWT of an unknown key',
      `${b64url({ alg: 'HS256', sign_type: 'SIGN' })}.${b64url({ api_key: 'f'.repeat(32), exp: Date.now() + 1e6, timestamp: Date.now() })}.c2ln`,
    ],
    ['unknown key id', `${'0'.repeat(32)}.secretsecretsecretsecretsecret12`],
  ])('malformed key (%s) → 401 1002', async (_label, token) => {
    expectRefused(await send(route, `Bearer ${token}`), 1002, 401);
  });

  it('wrong secret → 401 1002', async () => {
    const [id] = keyFor(route).split('.');
    expectRefused(await send(route, `Bearer ${id}.wrong-secret-wrong-secret-wrong-s`), 1002, 401);
  });

  it('revoked key → 401 1004', async () => {
    expectRefused(await send(route, `Bearer ${revokedKey}`), 1004, 401);
  });

  it('revoked key as a JWT → 401 1004', async () => {
    expectRefused(await send(route, `Bearer ${sdkJwt(revokedKey)}`), 1004, 401);
  });

  it('key without this endpoint → 403 1220', async () => {
    const other = route.endpoint === 'general' ? codingKey : t.key;
    const res = await send(route, `Bearer ${other}`);
    expectRefused(res, 1220, 403);
    expect(JSON.stringify(res.body)).toContain(`the ${route.endpoint} endpoint`);
  });

  it('admin keys have no API endpoint → 403 1220', async () => {
    expectRefused(await send(route, `Bearer ${CONFIGURED_ADMIN_KEY}`), 1220, 403);
  });

  it('SDK JWT with ms times passes', async () => {
    expectPassed(await send(route, `Bearer ${sdkJwt(keyFor(route))}`), route);
  });

  it('SDK JWT with typ and iat claims passes', async () => {
    const token = sdkJwt(keyFor(route), { iat: Math.floor(Date.now() / 1000) }, { typ: 'JWT' });
    expectPassed(await send(route, `Bearer ${token}`), route);
  });

  it('JWT with exp in microseconds (official Node SDK) passes', async () => {
    const token = sdkJwt(keyFor(route), { exp: Date.now() * 1000 + 3_600_000_000, timestamp: Date.now() });
    expectPassed(await send(route, `Bearer ${token}`), route);
  });

  it('JWT without "Bearer " (official Node SDK) passes', async () => {
    expectPassed(await send(route, sdkJwt(keyFor(route))), route);
  });

  it('plain key without "Bearer " passes', async () => {
    expectPassed(await send(route, keyFor(route)), route);
  });

  it('expired JWT → 401 1003', async () => {
    const token = sdkJwt(keyFor(route), { exp: Date.now() - 1000, timestamp: Date.now() - 3_601_000 });
    expectRefused(await send(route, `Bearer ${token}`), 1003, 401);
  });

  it('expired JWT in microseconds → 401 1003 (not "never expires")', async () => {
    const token = sdkJwt(keyFor(route), { exp: (Date.now() - 1000) * 1000 });
    expectRefused(await send(route, `Bearer ${token}`), 1003, 401);
  });

  it('JWT with a bad signature → 401 1002', async () => {
    const token = sdkJwt(keyFor(route));
    const forged = `${token.slice(0, token.lastIndexOf('.'))}.${createHmac('sha256', 'not-the-secret').update('x').digest('base64url')}`;
    expectRefused(await send(route, `Bearer ${forged}`), 1002, 401);
  });

  it('JWT whose payload was changed after signing → 401 1002', async () => {
    const [head, , sig] = sdkJwt(keyFor(route)).split('.');
    const payload = b64url({ api_key: keyFor(route).split('.')[0], exp: Date.now() + 9e9, timestamp: Date.now() });
    expectRefused(await send(route, `Bearer ${head}.${payload}.${sig}`), 1002, 401);
  });

  it('JWT signed with another key’s secret → 401 1002', async () => {
    const [id] = keyFor(route).split('.');
    const [, otherSecret] = bothKey.split('.');
    expectRefused(await send(route, `Bearer ${sdkJwt(`${id}.${otherSecret}`)}`), 1002, 401);
  });
});

describe('admin routes', () => {
  const ADMIN_ROUTES: { label: string; method: 'GET' | 'POST' | 'DELETE'; url: (id: string) => string; body?: Body }[] =
    [
      { label: 'GET /admin/keys', method: 'GET', url: () => '/admin/keys' },
      { label: 'POST /admin/keys', method: 'POST', url: () => '/admin/keys', body: { name: 'x' } },
      { label: 'GET /admin/keys/:id', method: 'GET', url: (id) => `/admin/keys/${id}` },
      { label: 'DELETE /admin/keys/:id', method: 'DELETE', url: (id) => `/admin/keys/${id}` },
      { label: 'POST /admin/keys/:id/revoke', method: 'POST', url: (id) => `/admin/keys/${id}/revoke` },
      { label: 'GET /admin/keys/:id/usage', method: 'GET', url: (id) => `/admin/keys/${id}/usage` },
    ];

  async function admin(
    app: TestApp,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    authorization: string | undefined,
    body?: Body,
  ): Promise<Answer> {
    const res = await app.app.inject({
      method,
      url,
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
  }

  describe.each(ADMIN_ROUTES)('$label', (route) => {
    const victim = () => t.key.split('.')[0]!;
    it('missing Authorization → 401 1001', async () => {
      expectRefused(await admin(t, route.method, route.url(victim()), undefined, route.body), 1001, 401);
    });
    it.each(['nope', 'a.b', 'a.b.c'])('malformed key %s → 401 1002', async (token) => {
      expectRefused(await admin(t, route.method, route.url(victim()), `Bearer ${token}`, route.body), 1002, 401);
    });
    it('a revoked key → 401 1004', async () => {
      expectRefused(await admin(t, route.method, route.url(victim()), `Bearer ${revokedKey}`, route.body), 1004, 401);
    });
    it('an ordinary key → 403 1220', async () => {
      expectRefused(await admin(t, route.method, route.url(victim()), `Bearer ${bothKey}`, route.body), 1220, 403);
    });
    it('an ordinary key as an SDK JWT → 403 1220', async () => {
      expectRefused(await admin(t, route.method, route.url(victim()), sdkJwt(bothKey), route.body), 1220, 403);
    });
  });

  const adminApps: [string, () => Promise<{ app: TestApp; adminKey: string; own: boolean }>][] = [
    ['the configured security.admin_key', async () => ({ app: t, adminKey: CONFIGURED_ADMIN_KEY, own: false })],
    [
      'the admin key created on first start (ensureAdminKey)',
      async () => {
        const app = await createTestApp(withoutEngines());
        const adminKey = await app.services.keys.ensureAdminKey();
        if (!adminKey) throw new Error('ensureAdminKey created no key');
        expect(await app.services.keys.ensureAdminKey()).toBeUndefined();
        return { app, adminKey, own: true };
      },
    ],
  ];

  describe.each(adminApps)('with %s', (_label, open) => {
    let app: TestApp;
    let adminKey: string;
    let own = false;
    beforeAll(async () => {
      ({ app, adminKey, own } = await open());
    });
    afterAll(async () => {
      if (own) await app.close();
    });
    const as = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: Body) =>
      admin(app, method, url, `Bearer ${adminKey}`, body);

    it('lists keys without secrets', async () => {
      const res = await as('GET', '/admin/keys');
      expect(res.status).toBe(200);
      const data = res.body['data'] as Record<string, unknown>[];
      const id = app.key.split('.')[0];
      expect(data.map((k) => k['id'])).toContain(id);
      expect(JSON.stringify(res.body)).not.toContain(app.key.split('.')[1]);
      for (const k of data)
        expect(Object.keys(k).sort()).toEqual([
          'allowed_ips',
          'created_at',
          'description',
          'endpoints',
          'expires_at',
          'id',
          'limits',
          'models',
          'name',
          'previous_secret_until',
          'revoked_at',
          'role',
        ]);
    });

    it('creates a key shown once that works on the API, revokes it, reads its usage', async () => {
      const created = await as('POST', '/admin/keys', { name: 'ci', endpoints: ['general', 'coding'] });
      expect(created.status).toBe(200);
      const key = created.body['key'] as string;
      const id = created.body['id'] as string;
      expect(key.startsWith(`${id}.`)).toBe(true);
      expect(created.body['endpoints']).toEqual(['general', 'coding']);

      const shown = await as('GET', `/admin/keys/${id}`);
      expect(shown.body['key']).toBeUndefined();
      expect(JSON.stringify(shown.body)).not.toContain(key.split('.')[1]);
      expect(JSON.stringify((await as('GET', '/admin/keys')).body)).not.toContain(key.split('.')[1]);

      expectAccepted(await app.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key));
      expectAccepted(
        await app.post(`/coding${EXAMPLES.webSearch.url}`, EXAMPLES.webSearch.body, key),
        EXAMPLES.webSearch.passCodes,
      );
      expect((await app.post(EXAMPLES.reader.url, { url: '' }, key)).status).toBe(400);

      await expect.poll(async () => (await as('GET', `/admin/keys/${id}/usage`)).body['requests']).toBe(3);
      const usage = (await as('GET', `/admin/keys/${id}/usage`)).body;
      expect(usage).toMatchObject({ id, since: 0, requests: 3, promptTokens: 0, completionTokens: 0 });
      // The chat and reader requests failed; web search fails too unless a search index is wired.
      expect(usage['errors']).toBeGreaterThanOrEqual(2);
      expect(Object.keys(usage['byOperation'] as object).sort()).toEqual(['chat.completions', 'reader', 'web_search']);

      const revoked = await as('DELETE', `/admin/keys/${id}`);
      expect(revoked.status).toBe(200);
      expect(typeof revoked.body['revoked_at']).toBe('number');
      expectRefused(await app.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key), 1004, 401);
    });

    it('revokes with POST /admin/keys/:id/revoke too', async () => {
      const { body } = await as('POST', '/admin/keys', { name: 'short-lived' });
      const key = body['key'] as string;
      expect((await app.post(EXAMPLES.tokenizer.url, EXAMPLES.tokenizer.body, key)).body['code']).toBe(1211);
      expect((await as('POST', `/admin/keys/${body['id']}/revoke`)).status).toBe(200);
      expectRefused(await app.post(EXAMPLES.tokenizer.url, EXAMPLES.tokenizer.body, key), 1004, 401);
      expectRefused(await app.post(EXAMPLES.tokenizer.url, EXAMPLES.tokenizer.body, null), 1001, 401);
    });

    it('a new key has the general endpoint only', async () => {
      const { body } = await as('POST', '/admin/keys', { name: 'general-only' });
      expect(body['endpoints']).toEqual(['general']);
      expectRefused(
        await app.post(`/coding${EXAMPLES.chat.url}`, EXAMPLES.chat.body, body['key'] as string),
        1220,
        403,
      );
    });

    it('an unknown key id is 404 1233', async () => {
      const res = await as('GET', `/admin/keys/${'0'.repeat(32)}/usage`);
      expect(res.status).toBe(404);
      expect(res.body['code']).toBe(1233);
    });

    it('refuses a bad create body with the field named', async () => {
      const res = await as('POST', '/admin/keys', { name: 'x', endpoints: ['everything'] });
      expect(res.status).toBe(400);
      expect(res.body['message']).toContain('endpoints[0]');
    });
  });

  it('a revoked admin key → 401 1004', async () => {
    const app = await createTestApp(withoutEngines());
    try {
      const adminKey = (await app.services.keys.ensureAdminKey())!;
      expect((await admin(app, 'GET', '/admin/keys', `Bearer ${adminKey}`)).status).toBe(200);
      await app.services.keys.revoke(adminKey.split('.')[0]!);
      expectRefused(await admin(app, 'GET', '/admin/keys', `Bearer ${adminKey}`), 1004, 401);
    } finally {
      await app.close();
    }
  });
});
