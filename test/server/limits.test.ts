import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Answer, EXAMPLES, expectAccepted, expectErrorBody, withoutEngines } from '../api/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines());
});
afterAll(() => t.close());

const chat = (key: string) => t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key);
const idOf = (key: string) => key.split('.')[0]!;

function expectLimited(res: Answer, code: 1302 | 1303 | 1308): void {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expectErrorBody(res, code);
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
}

describe('requests per minute', () => {
  it('the request over the limit is 429 1303 with Retry-After, and other keys are not affected', async () => {
    const key = await t.newKey({ limits: { concurrent: 0, requests_per_minute: 2, windows: [] } });
    expectAccepted(await chat(key));
    expectAccepted(await chat(key));
    const res = await chat(key);
    expectLimited(res, 1303);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(res.body['message']).toContain('2 per minute');
    // Retryable: no x-should-retry: false (docs/wire.md, "Errors").
    expect(res.headers['x-should-retry']).toBeUndefined();
    expectAccepted(await chat(t.key));
  });

  it('counts requests on every operation and endpoint of the key', async () => {
    const key = await t.newKey({
      endpoints: ['general', 'coding'],
      limits: { concurrent: 0, requests_per_minute: 2, windows: [] },
    });
    expectAccepted(await t.post(EXAMPLES.reader.url, EXAMPLES.reader.body, key), EXAMPLES.reader.passCodes);
    expectAccepted(
      await t.post(`/coding${EXAMPLES.webSearch.url}`, EXAMPLES.webSearch.body, key),
      EXAMPLES.webSearch.passCodes,
    );
    expectLimited(await t.post(EXAMPLES.tokenizer.url, EXAMPLES.tokenizer.body, key), 1303);
  });

  it('applies before validation (a bad body still counts and is still refused)', async () => {
    const key = await t.newKey({ limits: { concurrent: 0, requests_per_minute: 1, windows: [] } });
    expectErrorBody(await t.post(EXAMPLES.chat.url, { temperature: 9 }, key), 1213);
    expectLimited(await t.post(EXAMPLES.chat.url, { temperature: 9 }, key), 1303);
  });
});

describe('usage window', () => {
  it('2 requests per 5 hours: the third is 429 1308 with the reset time in the message', async () => {
    const key = await t.newKey({
      limits: { concurrent: 0, requests_per_minute: 0, windows: [{ requests: 2, hours: 5 }] },
    });
    const before = Date.now();
    expectAccepted(await chat(key));
    expectAccepted(await chat(key));
    // The window counts stored usage records, written when each response closes.
    await vi.waitFor(async () => expect((await t.services.store.usageTotals(idOf(key))).requests).toBe(2));
    const res = await chat(key);
    const after = Date.now();
    expectLimited(res, 1308);
    expect(res.headers['x-should-retry']).toBe('false');
    const message = String(res.body['message']);
    expect(message).toContain('2 requests per 5 hours');
    const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/.exec(message)?.[0];
    expect(iso, message).toBeDefined();
    const resetsAt = Date.parse(iso!);
    expect(resetsAt).toBeGreaterThanOrEqual(before + 5 * 3_600_000);
    expect(resetsAt).toBeLessThanOrEqual(after + 5 * 3_600_000);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(5 * 3600 - 60);
    expect(retryAfter).toBeLessThanOrEqual(5 * 3600);
  });

  it('the configured defaults apply to keys without limits of their own', async () => {
    const app = await createTestApp(withoutEngines({ limits: { windows: [{ requests: 1, hours: 1 }] } }));
    try {
      expectAccepted(await app.post(EXAMPLES.chat.url, EXAMPLES.chat.body));
      await vi.waitFor(async () => expect((await app.services.store.usageTotals(idOf(app.key))).requests).toBe(1));
      expectLimited(await app.post(EXAMPLES.chat.url, EXAMPLES.chat.body), 1308);
      // A key with limits of its own is not bound by the defaults.
      const own = await app.newKey({ limits: { concurrent: 0, requests_per_minute: 0, windows: [] } });
      expectAccepted(await app.post(EXAMPLES.chat.url, EXAMPLES.chat.body, own));
      expectAccepted(await app.post(EXAMPLES.chat.url, EXAMPLES.chat.body, own));
    } finally {
      await app.close();
    }
  });
});

describe('concurrent requests', () => {
  it('a second request while one is in flight is 429 1302; after it ends, requests pass again', async () => {
    const key = await t.newKey({ limits: { concurrent: 1, requests_per_minute: 0, windows: [] } });
    const body = JSON.stringify(EXAMPLES.chat.body);
    // A request whose body is still arriving holds its slot: it was admitted when its headers came.
    const slow = new PassThrough();
    slow.write(body.slice(0, 10));
    const admit = vi.spyOn(t.services.limiter, 'admit');
    const held = t.app.inject({
      method: 'POST',
      url: EXAMPLES.chat.url,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      payload: slow,
    });
    await vi.waitFor(() => expect(admit).toHaveBeenCalledTimes(1));
    await admit.mock.results[0]!.value;
    admit.mockRestore();

    const second = await chat(key);
    expectLimited(second, 1302);
    expect(second.body['message']).toContain('1 at a time');
    expect(second.headers['x-should-retry']).toBeUndefined();
    // Other keys are not affected.
    expectAccepted(await chat(t.key));

    slow.end(body.slice(10));
    const first = await held;
    expect(first.json()).toMatchObject({ code: 1211 });
    await vi.waitFor(async () => expectAccepted(await chat(key)));
  });
});
