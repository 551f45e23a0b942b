import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { healthTimes, percentiles } from '../helpers/health-times.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { ADMIN_KEY, type ConsoleClient, signIn } from '../routes/console/support.js';

const SIXTY_MB = 60 * 1024 * 1024;
const CONTROL_LIMIT = 64 * 1024;

/** Routes anyone may call, and every console route (with a signed-in admin's cookie and CSRF token). */
const OPEN_ROUTES: [string, string][] = [
  ['POST', '/console/api/session'],
  ['GET', '/health'],
  ['GET', '/health/ready'],
  ['GET', '/openapi.json'],
  ['GET', '/docs'],
  ['GET', '/console'],
  ['GET', '/console/assets/x.js'],
  ['GET', '/files/x'],
  ['POST', '/paas/v4/chat/completions'],
  ['POST', '/v1/agents'],
  ['POST', '/admin/keys'],
];
const CONSOLE_ROUTES: [string, string][] = [
  ['POST', '/console/api/session'],
  ['DELETE', '/console/api/session'],
  ['POST', '/console/api/password'],
  ['POST', '/console/api/playground-token'],
  ['POST', '/console/api/search/crawl'],
  ['POST', '/console/api/keys'],
  ['POST', '/console/api/keys/x/revoke'],
  ['POST', '/console/api/accounts'],
  ['POST', '/console/api/accounts/x/disable'],
  ['POST', '/console/api/billing/redeem'],
  ['POST', '/console/api/billing/keys/x/budget'],
  ['POST', '/console/api/billing/accounts/x/credit'],
  ['POST', '/console/api/billing/accounts/x/budget'],
  ['POST', '/console/api/billing/codes'],
  ['POST', '/console/api/billing/prices/x'],
  ['DELETE', '/console/api/billing/prices/x'],
];

let t: TestApp;
let base: URL;
let admin: ConsoleClient;

beforeAll(async () => {
  t = await createTestApp({ security: { admin_key: ADMIN_KEY } });
  admin = await signIn(t.app, { admin_key: ADMIN_KEY });
  base = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(() => t.close());

interface Sent {
  status: number;
  body: string;
}

/**
 * Sends `size` bytes of 'a' as a client that keeps writing until the server answers (then stops):
 * with a Content-Length, or chunked when `length` is false.
 */
function flood(method: string, path: string, type: string, headers: Record<string, string>, length = true) {
  return new Promise<Sent>((resolve, reject) => {
    const req = http.request(new URL(path, base), {
      method,
      headers: {
        'content-type': type,
        ...(length ? { 'content-length': String(SIXTY_MB) } : { 'transfer-encoding': 'chunked' }),
        ...headers,
      },
      agent: false,
    });
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      req.destroy();
      resolve({ status: -1, body: `no answer after ${sentBytes()} bytes` });
    }, 5000);
    req.on('response', (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() });
        req.destroy();
      });
    });
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const chunk = Buffer.alloc(256 * 1024, 'a');
    let sent = 0;
    const sentBytes = () => sent;
    const write = () => {
      while (!answered && sent < SIXTY_MB) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

describe('60 MB bodies', () => {
  it('to every open route and every console route: refused early, /health under 100 ms meanwhile', async () => {
    const session = { cookie: admin.cookie, 'x-csrf-token': admin.csrf };
    const attacks: [string, string, string, Record<string, string>, boolean][] = [];
    for (const [method, path] of OPEN_ROUTES) {
      for (const type of ['application/json', 'application/x-ndjson', 'text/plain'])
        attacks.push([method, path, type, {}, true]);
      attacks.push([method, path, 'application/json', {}, false]);
    }
    for (const [method, path] of CONSOLE_ROUTES) {
      for (const type of ['application/json', 'application/x-ndjson'])
        attacks.push([method, path, type, session, true]);
      attacks.push([method, path, 'application/json', session, false]);
    }
    const rssBefore = process.memoryUsage().rss;
    const answers: { what: string; status: number; body: string }[] = [];
    const { times } = await healthTimes(base.href, async () => {
      // Four at a time, as a client with a few connections would.
      for (let i = 0; i < attacks.length; i += 4) {
        const batch = attacks.slice(i, i + 4);
        const sent = await Promise.all(batch.map(([m, p, type, h, len]) => flood(m, p, type, h, len)));
        for (const [j, s] of sent.entries()) answers.push({ what: batch[j]!.slice(0, 3).join(' '), ...s });
      }
    });
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    for (const a of answers) {
      // Never read: too large for the route, not a type it takes, or no key.
      expect([401, 413, 415], `${a.what} → ${a.status} ${a.body}`).toContain(a.status);
      expect(JSON.parse(a.body), a.what).toHaveProperty('code');
    }
    // Before, one 8 MB body held /health for 4.7 s. The bound is on the 95th percentile, the
    // slowest is held to 500 ms: the test shares a loaded machine with its own 60 MB client.
    expect(times.length).toBeGreaterThan(3);
    const { p95, max } = percentiles(times);
    expect(p95, `/health times: ${times.map((x) => x.toFixed(0)).join(' ')}`).toBeLessThan(100);
    expect(max, `/health times: ${times.map((x) => x.toFixed(0)).join(' ')}`).toBeLessThan(500);
    expect(rssGrowth).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);
});

describe('limits and content types per route', () => {
  it('sign-in takes 8 KiB; a larger body is a 413 naming that limit', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/api/session',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ admin_key: 'a'.repeat(9000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 1210, message: 'Request body is larger than the limit of 8192 bytes' });
  });

  it('sign-in in a type it does not take is a 415, before the session is looked at', async () => {
    for (const type of ['application/x-ndjson', 'application/jsonl', 'text/plain']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: { 'content-type': type },
        payload: '{"admin_key":"x"}',
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toMatchObject({ code: 1210, message: `Content-Type must be application/json, not ${type}` });
    }
  });

  it('a console route takes server.control_body_limit', async () => {
    const res = await admin.call('POST', '/console/api/keys', { name: 'k', pad: 'x'.repeat(CONTROL_LIMIT) });
    expect(res.status).toBe(413);
    expect(res.body['message']).toBe(`Request body is larger than the limit of ${CONTROL_LIMIT} bytes`);
  });

  it('the import takes JSONL only, and JSON elsewhere is not read as JSONL', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/console/api/search/import',
      headers: { 'content-type': 'application/json', cookie: admin.cookie, 'x-csrf-token': admin.csrf },
      payload: '{}',
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()['message']).toContain('application/x-ndjson or application/jsonl');
  });

  it('a JSON body that is not an object never reaches an object schema', async () => {
    for (const payload of ['"aaaa"', '[1,2,3]', '7']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/api/session',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toMatchObject({ code: 1210, message: 'Request body must be a JSON object' });
    }
  });
});
