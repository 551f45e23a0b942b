import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { UsageRecord } from '../../src/stores/types.js';
import { type Body, EXAMPLES, expectAccepted, expectErrorBody, withoutEngines } from '../api/support.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ADMIN_KEY = 'request-id-suite-admin-key-0123';

let t: TestApp;
let address: string;
const records: UsageRecord[] = [];

beforeAll(async () => {
  t = await createTestApp(withoutEngines({ security: { admin_key: ADMIN_KEY } }));
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const store = t.services.store;
  const original = store.recordUsage.bind(store);
  vi.spyOn(store, 'recordUsage').mockImplementation(async (batch) => {
    records.push(...batch);
    return original(batch);
  });
});
afterAll(() => t.close());

const idOf = (key: string) => key.split('.')[0]!;
let counter = 0;
/** A request id unique to this run and test. */
const freshId = () => `rid-${process.pid}-${Date.now()}-${++counter}`;

describe('request_id registry', () => {
  it('a second use by the same key is 400 1231, naming the id', async () => {
    const key = await t.newKey();
    const requestId = freshId();
    expectAccepted(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, key));
    const again = await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, key);
    expect(again.status).toBe(400);
    expectErrorBody(again, 1231);
    expect(again.body['message']).toContain('request_id');
    expect(again.body['message']).toContain(requestId);
    expect(again.headers['x-should-retry']).toBe('false');
  });

  it('the registry is per key, across operations and endpoints', async () => {
    const key = await t.newKey({ endpoints: ['general', 'coding'] });
    const requestId = freshId();
    expectAccepted(
      await t.post(EXAMPLES.webSearch.url, { ...EXAMPLES.webSearch.body, request_id: requestId }, key),
      EXAMPLES.webSearch.passCodes,
    );
    const onReader = await t.post(EXAMPLES.reader.url, { ...EXAMPLES.reader.body, request_id: requestId }, key);
    expectErrorBody(onReader, 1231);
    const onCoding = await t.post(
      `/coding${EXAMPLES.tokenizer.url}`,
      { ...EXAMPLES.tokenizer.body, request_id: requestId },
      key,
    );
    expectErrorBody(onCoding, 1231);
  });

  it('another key may use the same id', async () => {
    const [a, b] = [await t.newKey(), await t.newKey()];
    const requestId = freshId();
    expectAccepted(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, a));
    expectAccepted(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, b));
    expectErrorBody(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, b), 1231);
  });

  it('a request refused by validation does not use up its id', async () => {
    const key = await t.newKey();
    const requestId = freshId();
    const refused = await t.post(
      EXAMPLES.chat.url,
      { ...EXAMPLES.chat.body, temperature: 9, request_id: requestId },
      key,
    );
    expectErrorBody(refused, 1214);
    expectAccepted(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, key));
  });

  it('ids are compared exactly (case and length)', async () => {
    const key = await t.newKey();
    const requestId = freshId();
    expectAccepted(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId }, key));
    expectAccepted(
      await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId.toUpperCase() }, key),
    );
    expectAccepted(await t.post(EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: `${requestId}x` }, key));
  });

  it('requests without request_id are never 1231', async () => {
    const key = await t.newKey();
    for (let i = 0; i < 3; i++) expectAccepted(await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key));
  });
});

describe('usage records', () => {
  const recordsOf = (keyId: string) => records.filter((r) => r.keyId === keyId);

  // Over a real socket, as clients call: the record is made as the reply ends (track-request.ts).
  it('one per request with key, operation, model, status and latency (real socket)', async () => {
    const key = await t.newKey();
    const keyId = idOf(key);
    const requestId = freshId();
    const call = async (method: 'GET' | 'POST', url: string, body?: Body) => {
      const res = await fetch(address + url, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      await res.arrayBuffer();
    };
    await call('POST', EXAMPLES.chat.url, { ...EXAMPLES.chat.body, request_id: requestId });
    await call('POST', EXAMPLES.tokenizer.url, { ...EXAMPLES.tokenizer.body, model: 'gen-4.5' });
    await call('POST', EXAMPLES.conversation.url, EXAMPLES.conversation.body);
    await call('POST', EXAMPLES.webSearch.url, { ...EXAMPLES.webSearch.body, count: 500 });
    await call('GET', '/paas/v4/async-result/20260101000000abcdefabcdefabcd');

    await vi.waitFor(() => expect(recordsOf(keyId)).toHaveLength(5));
    const [chat, tokenizer, conversation, search, task] = recordsOf(keyId) as [
      UsageRecord,
      UsageRecord,
      UsageRecord,
      UsageRecord,
      UsageRecord,
    ];
    expect(chat).toMatchObject({ keyId, operation: 'chat.completions', model: 'gen-4.6', requestId, status: 400 });
    expect(tokenizer).toMatchObject({ operation: 'tokenizer', model: 'gen-4.5', status: 400 });
    expect(conversation).toMatchObject({ operation: 'agents.conversation', status: 404 });
    expect(search).toMatchObject({ operation: 'web_search', status: 400 });
    expect(task).toMatchObject({ operation: 'async.result', status: 404 });
    for (const r of recordsOf(keyId)) {
      expect(r.latencyMs).toBeGreaterThanOrEqual(0);
      expect(Number.isFinite(r.latencyMs)).toBe(true);
      expect(r.promptTokens).toBe(0);
      expect(r.completionTokens).toBe(0);
      expect(r.createdAt).toBeLessThanOrEqual(Date.now());
    }
  });

  it('no record for requests refused before a key is admitted (401, 1220)', async () => {
    const before = records.length;
    await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, null);
    await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, 'nope');
    await t.post(`/coding${EXAMPLES.chat.url}`, EXAMPLES.chat.body);
    // A request after them: once its record is in, any record of the refused ones would be too.
    const key = await t.newKey();
    await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key);
    await vi.waitFor(() => expect(recordsOf(idOf(key))).toHaveLength(1));
    expect(records.slice(before).map((r) => r.keyId)).toEqual([idOf(key)]);
  });

  it('totals per key through the store and GET /admin/keys/:id/usage', async () => {
    const key = await t.newKey();
    const keyId = idOf(key);
    await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key);
    await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, key);
    await t.post(EXAMPLES.reader.url, EXAMPLES.reader.body, key);
    await vi.waitFor(() => expect(recordsOf(keyId)).toHaveLength(3));
    await vi.waitFor(async () => expect((await t.services.store.usageTotals(keyId)).requests).toBe(3));

    const totals = await t.services.store.usageTotals(keyId);
    expect(totals).toMatchObject({ requests: 3, errors: 3, promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    expect(totals.byOperation).toEqual({
      'chat.completions': { requests: 2, promptTokens: 0, completionTokens: 0, cost: 0 },
      reader: { requests: 1, promptTokens: 0, completionTokens: 0, cost: 0 },
    });

    const res = await t.app.inject({
      method: 'GET',
      url: `/admin/keys/${keyId}/usage`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(res.statusCode).toBe(200);
    const zero = { cost: '0.00' };
    expect(res.json()).toEqual({
      id: keyId,
      since: 0,
      ...totals,
      ...zero,
      currency: 'CNY',
      byOperation: {
        'chat.completions': { ...totals.byOperation['chat.completions'], ...zero },
        reader: { ...totals.byOperation['reader'], ...zero },
      },
      budget: null,
    });

    const future = Math.floor(Date.now() / 1000) + 3600;
    const later = await t.app.inject({
      method: 'GET',
      url: `/admin/keys/${keyId}/usage?since=${future}`,
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(later.json()).toMatchObject({ id: keyId, since: future, requests: 0 });
  });

  it('totals of one key do not include another key', async () => {
    const [a, b] = [await t.newKey(), await t.newKey()];
    await t.post(EXAMPLES.chat.url, EXAMPLES.chat.body, a);
    await vi.waitFor(() => expect(recordsOf(idOf(a))).toHaveLength(1));
    expect((await t.services.store.usageTotals(idOf(b))).requests).toBe(0);
  });
});
