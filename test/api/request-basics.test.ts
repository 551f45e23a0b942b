import { Readable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { type Answer, EXAMPLES, expectAccepted, expectRejected, JSON_CONTENT_TYPE, withoutEngines } from './support.js';

const BODY_LIMIT = 2048;
const CHAT = EXAMPLES.chat.url;
const BODY_OPERATIONS = Object.values(EXAMPLES);

let t: TestApp;
let address: string;
/** A key of both endpoints: every operation's example is admitted (the Anthropic API's are for coding keys). */
let key: string;

beforeAll(async () => {
  t = await createTestApp(withoutEngines({ server: { body_limit: BODY_LIMIT } }));
  key = await t.newKey({ endpoints: ['general', 'coding'] });
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function inject(options: InjectOptions): Promise<Answer> {
  const res = await t.app.inject(options);
  return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
}

const auth = () => ({ authorization: `Bearer ${key}` });
const raw = (url: string, payload: string, headers: Record<string, string> = {}) =>
  inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...auth(), ...headers } });

describe('bodies that are not a JSON object (1210)', () => {
  it.each(BODY_OPERATIONS.map((op) => [op.name, op.url]))('%s: body not JSON', async (_name, url) => {
    expectRejected(await raw(url, '{"model": "gen-4.6", '), 1210, 'JSON');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"hello"'],
    ['a number', '42'],
    ['true', 'true'],
    ['null', 'null'],
  ])('body is %s', async (_label, payload) => {
    expectRejected(await raw(CHAT, payload), 1210, 'JSON object');
  });

  it.each([
    ['trailing garbage', '{"model":"gen-4.6"} x'],
    ['single quotes', "{'model':'gen-4.6'}"],
    ['a bare word', 'hello'],
    ['a UTF-8 BOM only', '\ufeff'],
  ])('body with %s', async (_label, payload) => {
    expectRejected(await raw(CHAT, payload), 1210, 'JSON');
  });

  it('an empty body with a JSON content type', async () => {
    expectRejected(await raw(CHAT, ''), 1210, 'empty');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'])(
    'content type %s',
    async (type) => {
      expectRejected(
        await raw(CHAT, JSON.stringify(EXAMPLES.chat.body), { 'content-type': type }),
        1210,
        'Content-Type must be application/json',
        415,
      );
    },
  );

  it('no content type and no body', async () => {
    const res = await inject({ method: 'POST', url: CHAT, headers: auth() });
    expectRejected(res, 1210, 'JSON object');
  });
});

describe('content types that are JSON', () => {
  it.each([
    'application/json',
    'application/json; charset=UTF-8',
    'application/json;charset=utf-8',
    'Application/JSON',
  ])('%s', async (type) => {
    expectAccepted(await raw(CHAT, JSON.stringify(EXAMPLES.chat.body), { 'content-type': type }));
  });

  it('a GET with a JSON content type and an empty body (task polling) is fine', async () => {
    const res = await inject({
      method: 'GET',
      url: '/paas/v4/async-result/20260101000000abcdefabcdefabcd',
      headers: { ...auth(), 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(res.status).toBe(404);
    expect(res.body['code']).toBe(1233);
  });
});

describe('body over the configured limit', () => {
  const oversized = JSON.stringify({ ...EXAMPLES.chat.body, padding: 'x'.repeat(BODY_LIMIT * 2) });

  it('is a clear 1210 in-process', async () => {
    const res = await raw(CHAT, oversized);
    expectRejected(res, 1210, `limit of ${BODY_LIMIT} bytes`, 413);
  });

  it('a body just under the limit is read', async () => {
    const base = JSON.stringify({ ...EXAMPLES.chat.body, padding: '' });
    const body = JSON.stringify({ ...EXAMPLES.chat.body, padding: 'x'.repeat(BODY_LIMIT - base.length) });
    expect(Buffer.byteLength(body)).toBe(BODY_LIMIT);
    expectAccepted(await raw(CHAT, body));
  });

  it.each([
    ['twice the limit', 2],
    ['100 times the limit', 100],
    ['1000 times the limit', 1000],
  ])('reaches a real client as JSON, not a reset (fetch, %s)', async (_label, times) => {
    const res = await fetch(`${address}${CHAT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth() },
      body: JSON.stringify({ ...EXAMPLES.chat.body, padding: 'x'.repeat(BODY_LIMIT * times) }),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe(JSON_CONTENT_TYPE);
    expect(res.headers.get('x-should-retry')).toBe('false');
    const body = (await res.json()) as Record<string, unknown>;
    expect(body['code']).toBe(1210);
    expect(body['message']).toContain(`limit of ${BODY_LIMIT} bytes`);
  });

  it('reaches a real client as JSON when the body is sent chunked (no Content-Length)', async () => {
    const chunks = Array.from({ length: 64 }, () => Buffer.from('x'.repeat(512)));
    const res = await undiciRequest(`${address}${CHAT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth() },
      body: Readable.from([Buffer.from('{"padding":"'), ...chunks, Buffer.from('"}')]),
    });
    expect(res.statusCode).toBe(413);
    expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    const body = (await res.body.json()) as Record<string, unknown>;
    expect(body['code']).toBe(1210);
    expect(body['message']).toContain(`limit of ${BODY_LIMIT} bytes`);
  });
});

describe('headers', () => {
  it('a header with underscores (source_type) is accepted in-process', async () => {
    expectAccepted(await raw(CHAT, JSON.stringify(EXAMPLES.chat.body), { source_type: 'x', x_custom_flag: '1' }));
  });

  it('a header with underscores is accepted over a real socket', async () => {
    const res = await undiciRequest(`${address}${CHAT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', source_type: 'zhipu-sdk', ...auth() },
      body: JSON.stringify(EXAMPLES.chat.body),
    });
    const body = (await res.body.json()) as Record<string, unknown>;
    expect(res.statusCode).toBe(400);
    expect(body['code']).toBe(1211);
  });

  it.each(['xx-YY', 'zh-CN,zh;q=0.9', '*', 'en-US,en', '!!!'])('Accept-Language %s is ignored', async (lang) => {
    expectAccepted(await raw(CHAT, JSON.stringify(EXAMPLES.chat.body), { 'accept-language': lang }));
    const res = await raw(CHAT, JSON.stringify({ ...EXAMPLES.chat.body, temperature: 5 }), { 'accept-language': lang });
    expectRejected(res, 1214, 'Invalid temperature: must be between 0 and 1');
  });

  it('x-* headers that SDKs send are ignored', async () => {
    expectAccepted(
      await raw(CHAT, JSON.stringify(EXAMPLES.chat.body), {
        'x-stainless-lang': 'js',
        'x-request-id': 'abc',
        'x-title': 't',
      }),
    );
  });
});

describe('error answers', () => {
  it.each([
    ['400 validation', () => raw(CHAT, JSON.stringify({ ...EXAMPLES.chat.body, top_p: 7 })), 400],
    ['400 not JSON', () => raw(CHAT, '{'), 400],
    ['401 missing key', () => inject({ method: 'POST', url: CHAT, payload: '{}' }), 401],
    ['404 unknown path', () => inject({ method: 'POST', url: '/paas/v4/nope', headers: auth() }), 404],
  ])('%s: JSON content type exactly, x-should-retry false, flat and nested error', async (_l, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe(JSON_CONTENT_TYPE);
    expect(res.headers['x-should-retry']).toBe('false');
    expect(Number.isInteger(res.body['code'])).toBe(true);
    expect(res.body['error']).toEqual({ code: String(res.body['code']), message: res.body['message'] });
  });
});
