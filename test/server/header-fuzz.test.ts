import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, withoutEngines } from '../api/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Property: whatever headers an unauthenticated (or wrongly authenticated) client sends, to any
 * kind of route (API, admin, console API and page, files, health), the answer is never a 500.
 * Headers: Authorization, Cookie, Content-Type, Accept-Language, X-Forwarded-For (and -Proto,
 * -Host), Accept, Accept-Encoding, CSRF; values long, malformed, in odd encodings.
 *
 * The seed is fixed so that a run is repeatable; FUZZ_SEED=<n> explores another part of the space.
 */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 400);
const ADMIN_KEY = 'header-fuzz-admin-key-0123456789';

let t: TestApp;
let fileUrl: string;
beforeAll(async () => {
  t = await createTestApp(
    withoutEngines({ security: { admin_key: ADMIN_KEY }, server: { trust_proxy: ['127.0.0.1', '10.0.0.0/8'] } }),
  );
  const file = await t.services.files.put(Buffer.from('hello'), { contentType: 'text/plain' });
  fileUrl = `/files/${file.id}.txt`;
});
afterAll(() => t?.close());

interface Target {
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  url: () => string;
  body?: unknown;
}

const TARGETS: Target[] = [
  { method: 'POST', url: () => EXAMPLES.chat.url, body: EXAMPLES.chat.body },
  { method: 'POST', url: () => EXAMPLES.tokenizer.url, body: EXAMPLES.tokenizer.body },
  { method: 'POST', url: () => EXAMPLES.agents.url, body: EXAMPLES.agents.body },
  { method: 'POST', url: () => '/coding/paas/v4/chat/completions', body: EXAMPLES.chat.body },
  { method: 'GET', url: () => '/paas/v4/async-result/20260101000000abcdefabcdefabcd' },
  { method: 'GET', url: () => '/paas/v4/models' },
  { method: 'GET', url: () => '/admin/keys' },
  { method: 'POST', url: () => '/admin/keys', body: { name: 'fuzz' } },
  { method: 'DELETE', url: () => '/admin/keys/abc' },
  { method: 'GET', url: () => '/console/api/session' },
  { method: 'GET', url: () => '/console/api/keys' },
  { method: 'POST', url: () => '/console/api/session', body: { email: 'a@b.example', password: 'x' } },
  { method: 'POST', url: () => '/console/api/session', body: { admin_key: 'not-the-key-0000' } },
  { method: 'DELETE', url: () => '/console/api/session' },
  { method: 'POST', url: () => '/console/api/keys', body: { name: 'k' } },
  { method: 'GET', url: () => '/console' },
  { method: 'GET', url: () => '/console/' },
  { method: 'GET', url: () => fileUrl },
  { method: 'GET', url: () => '/files/AAAAAAAAAAAAAAAAAAAAAAAA.png' },
  { method: 'GET', url: () => '/health' },
  { method: 'GET', url: () => '/nope' },
];

// Header values as an HTTP parser hands them over: latin1 text without CR, LF or NUL.
const headerChar = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  { weight: 1, arbitrary: fc.constant(0x09) },
);
const headerText = (maxLength: number) =>
  fc.array(headerChar, { maxLength }).map((codes) => String.fromCharCode(...codes));
const long = (unit: string) => fc.integer({ min: 1, max: 12_000 }).map((n) => unit.repeat(n).slice(0, 12_000));

const authorization = fc.oneof(
  headerText(60),
  fc.constantFrom(
    '',
    'Bearer',
    'Bearer ',
    'bearer x',
    'Basic dXNlcjpwYXNz',
    'Bearer a.b',
    'Bearer .',
    'Bearer ..',
    'Bearer a.b.c',
    'Bearer eyJhbGciOiJIUzI1NiJ9.eyJ9.sig',
    'Bearer eyJhbGciOiJub25lIn0.e30.',
    'Bearer %zz',
    `Bearer ${ADMIN_KEY}x`,
    'Bearer \u00ff\u00fe',
  ),
  headerText(40).map((s) => `Bearer ${s}`),
  headerText(40).map((s) => `Bearer ${Buffer.from(s, 'latin1').toString('base64')}.${s}.x`),
  long('a').map((s) => `Bearer ${s}`),
  long('.'),
);

const cookie = fc.oneof(
  headerText(60),
  fc.constantFrom(
    'gp_console=%zz',
    'gp_console=%E0%A4%A',
    'gp_console="',
    'gp_console=',
    'gp_console',
    '=gp_console',
    'gp_console=a; gp_console=b',
    ';;;',
    'gp_console=\u00ff',
    'gp_console=__proto__',
  ),
  headerText(60).map((s) => `gp_console=${s}`),
  long('gp_console=a;'),
  long('%'),
);

const contentType = fc.oneof(
  headerText(40),
  fc.constantFrom(
    '',
    'application/json',
    'application/json; charset=utf-16',
    'application/json; charset=',
    'application/json;;;',
    'APPLICATION/JSON',
    'text/plain',
    'multipart/form-data; boundary=',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    '*/*',
    ';',
    'application/json; charset="\\',
  ),
  long('application/json;'),
);

const acceptLanguage = fc.oneof(headerText(40), fc.constantFrom('*', 'zh-CN,zh;q=0.9', 'en;q=abc', ',,,'), long('en,'));

const forwardedFor = fc.oneof(
  headerText(40),
  fc.constantFrom(
    '',
    '1.2.3.4',
    '1.2.3.4, 10.0.0.1',
    '::1',
    '[::1]:80',
    'unknown',
    '999.999.999.999',
    'fe80::1%eth0',
    ', , ,',
    '1.2.3.4,,,',
  ),
  long('1.2.3.4, '),
);

const headers = fc.record(
  {
    authorization,
    cookie,
    'content-type': contentType,
    'accept-language': acceptLanguage,
    'x-forwarded-for': forwardedFor,
    'x-forwarded-proto': fc.oneof(headerText(10), fc.constantFrom('https', 'http', 'https, http', '')),
    'x-forwarded-host': fc.oneof(headerText(30), fc.constantFrom('evil.example', 'a:b:c', '[::1]:x')),
    accept: fc.oneof(headerText(30), fc.constantFrom('text/event-stream', '*/*;q=x', 'application/json')),
    'accept-encoding': fc.oneof(headerText(20), fc.constantFrom('gzip', 'br;q=2', 'identity;q=0', '*')),
    'x-csrf-token': fc.oneof(headerText(30), long('a')),
  },
  { requiredKeys: [] },
);

describe('header fuzz: nothing unauthenticated gets a 500', () => {
  it('every route answers 4xx/2xx/3xx/502 with garbage headers, never 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: TARGETS.length - 1 }), headers, async (at, sent) => {
        const target = TARGETS[at]!;
        const options: InjectOptions = {
          method: target.method,
          url: target.url(),
          headers: sent as Record<string, string>,
          ...(target.body === undefined ? {} : { payload: JSON.stringify(target.body) }),
        };
        const res = await t.app.inject(options);
        if (res.statusCode >= 500 && res.statusCode !== 502) {
          throw new Error(`${target.method} ${options.url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
        }
        if (res.headers['content-type']?.toString().startsWith('application/json')) {
          const body = res.json() as Record<string, unknown>;
          if (res.statusCode >= 400) expect(typeof body['code'] === 'number' || 'error' in body).toBe(true);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
  }, 120_000);

  it('the cookies of the abuse checks are a 401 on the console API', async () => {
    for (const value of ['gp_console=%zz', 'gp_console=%E0%A4%A', 'gp_console="']) {
      for (const url of ['/console/api/keys', '/console/api/session']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { cookie: value } });
        expect(res.statusCode, `${url} ${value}`).toBe(401);
      }
    }
  });
});
