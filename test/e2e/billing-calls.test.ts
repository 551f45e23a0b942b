import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { agentBody } from './agents-support.js';

/**
 * Priced calls on one process (SQLite): reserved before their work, billed at the price they
 * started with, refused with 1113 when the balance does not cover them, and the balance always
 * the sum of the ledger.
 */
const ADMIN = 'billing-calls-admin-key-0123456789';
const CHAT = '/paas/v4/chat/completions';
/** Money alone decides: no concurrency or rate limit on the keys. */
const UNLIMITED = { concurrent: 0, requests_per_minute: 0, windows: [] };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An OpenAI-compatible upstream: answers after `delayMs`, reporting 1000 prompt tokens of which 600 cached. */
let delayMs = 20;
let upstream: Server;
let upstreamUrl: string;
let t: TestApp;
let images: ReplayControl;

beforeAll(async () => {
  images = await startOpenAIReplay();
  upstream = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => {
      raw += c.toString();
    });
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as { stream?: boolean; max_tokens?: number };
      const base = { id: 'chatcmpl-x', created: 1, model: 'stand-in' };
      const usage = {
        prompt_tokens: 1000,
        completion_tokens: 10,
        total_tokens: 1010,
        prompt_tokens_details: { cached_tokens: 600 },
      };
      setTimeout(() => {
        if (res.destroyed) return;
        if (!body.stream) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              ...base,
              object: 'chat.completion',
              choices: [{ index: 0, message: { role: 'assistant', content: 'ten words' }, finish_reason: 'stop' }],
              usage,
            }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (delta: object, finish: string | null) =>
          `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.write(chunk({ role: 'assistant', content: '' }, null));
        let sent = 0;
        // Asked for 500 tokens, a long stream (the client cuts it); else three words.
        const words = body.max_tokens === 500 ? 200 : 3;
        const timer = setInterval(() => {
          if (sent++ < words) res.write(chunk({ content: 'word ' }, null));
          else {
            clearInterval(timer);
            res.write(chunk({}, 'stop'));
            res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`);
            res.end('data: [DONE]\n\n');
          }
        }, 10);
        res.on('close', () => clearInterval(timer));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  t = await createTestApp({
    security: { admin_key: ADMIN },
    metrics: { enabled: true },
    // Money alone decides: no concurrency or rate shared by the account's keys either.
    accounts: { concurrent: 0, requests_per_minute: 0 },
    models: {
      'gen-4.6': {
        deployments: [{ engine: 'openai-compatible', base_url: upstreamUrl, model: 'stand-in', max_context: 8192 }],
      },
      'gen-4.5': {
        deployments: [{ engine: 'openai-compatible', base_url: upstreamUrl, model: 'stand-in', max_context: 8192 }],
      },
      'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: images.url, model: 'stand-in' }] },
    },
    agents: { general_translation: { model: 'gen-4.6' } },
    prices: {
      // 400 fresh × 2 + 600 cached × 0.5 + 10 × 8 per million: 0.00118 a call.
      'gen-4.6': { input_per_million: '2', cached_input_per_million: '0.5', output_per_million: '8' },
      'gen-4.5': { per_call: '0.01' },
      'gen-image': { per_image: '0.10', per_image_by: { '1568x1056 hd': '0.40', hd: '0.25' } },
      web_search: { per_call: '0.003' },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await images?.close();
  await new Promise<void>((resolve) => {
    upstream.closeAllConnections();
    upstream.close(() => resolve());
  });
});

async function admin(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${ADMIN}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

/** A new account with `amount` credited, and a key it holds. */
async function funded(amount: string): Promise<{ account: string; key: string }> {
  const made = await admin('POST', '/admin/accounts', { name: 'Payer', email: `payer-${Math.random()}@example.test` });
  const account = made.body['id'] as string;
  if (amount !== '0') expect((await admin('POST', `/admin/accounts/${account}/credit`, { amount })).status).toBe(200);
  const key = await admin('POST', '/admin/keys', { name: 'payer', account, limits: UNLIMITED });
  expect(key.status).toBe(200);
  return { account, key: key.body['key'] as string };
}

const chat = (key: string, model = 'gen-4.6', extra: Record<string, unknown> = {}) =>
  t.post(CHAT, { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, ...extra }, key);

/** The account's balance equals the sum of its ledger, and what it reserves is back to 0. */
async function reconciled(account: string): Promise<number> {
  await t.services.usage.flush();
  const money = t.services.store.money;
  const { balance, reserved } = await money.balance(account);
  expect(await money.ledgerSum(account)).toBe(balance);
  expect(reserved).toBe(0);
  expect(balance).toBeGreaterThanOrEqual(0);
  return balance;
}

/** What the key's calls cost, from their usage records. */
async function costOf(key: string): Promise<number> {
  await t.services.usage.flush();
  return (await t.services.store.usageTotals(key.split('.')[0]!)).cost;
}

describe('priced chat calls', () => {
  it('bills cached prompt tokens at the cached price, with a ledger entry per call', async () => {
    const { account, key } = await funded('1');
    const res = await chat(key);
    expect(res.status).toBe(200);
    expect(res.body['usage']).toMatchObject({ prompt_tokens: 1000, prompt_tokens_details: { cached_tokens: 600 } });
    // 400 × 2 + 600 × 0.5 + 10 × 8 = 1180 millionths.
    expect(await reconciled(account)).toBe(1_000_000 - 1180);
    expect(await costOf(key)).toBe(1180);
    const ledger = await t.services.store.money.ledger({ accountId: account, kind: 'usage', limit: 10 });
    expect(ledger.map((e) => e.amount)).toEqual([-1180]);
  });

  it('refuses with 1113 (429) naming the balance and what is left when the worst case does not fit', async () => {
    const { account, key } = await funded('0.000100');
    const res = await chat(key);
    expect(res.status).toBe(429);
    expect(res.body['error']).toMatchObject({ code: '1113' });
    expect(String((res.body['error'] as { message: string }).message)).toMatch(/balance/i);
    expect(await reconciled(account)).toBe(100);
  });

  it('200 concurrent calls against a balance that covers exactly 37: 37 succeed, the rest get 1113', async () => {
    const { account, key } = await funded('0.37');
    const key2 = (await admin('POST', '/admin/keys', { name: 'payer-2', account, limits: UNLIMITED })).body[
      'key'
    ] as string;
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => chat(i % 2 ? key : key2, 'gen-4.5')));
    const ok = results.filter((r) => r.status === 200).length;
    const refused = results.filter((r) => r.status === 429 && (r.body['error'] as { code: string }).code === '1113');
    const other = results.filter((r) => r.status !== 200 && !refused.includes(r));
    expect(other.map((r) => r.body)).toEqual([]);
    expect(ok).toBe(37);
    expect(refused).toHaveLength(163);
    expect(await reconciled(account)).toBe(0);
    expect((await costOf(key)) + (await costOf(key2))).toBe(370_000);
  });

  it('a price change between reservation and settlement bills the price the call started with', async () => {
    const { account, key } = await funded('1');
    delayMs = 300;
    try {
      const call = chat(key, 'gen-4.5');
      await sleep(100);
      expect((await admin('PUT', '/admin/prices/gen-4.5', { per_call: '0.5' })).status).toBe(200);
      expect((await call).status).toBe(200);
    } finally {
      delayMs = 20;
      await admin('DELETE', '/admin/prices/gen-4.5');
    }
    expect(await reconciled(account)).toBe(1_000_000 - 10_000);
  });

  it('a stream cut by its client is billed for what was generated', async () => {
    const { account, key } = await funded('1');
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const controller = new AbortController();
    const res = await fetch(`${base}${CHAT}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gen-4.6',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 500,
      }),
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let text = '';
    while ((text.match(/word/g) ?? []).length < 5) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    const id = key.split('.')[0]!;
    let cost = 0;
    for (let i = 0; i < 100 && cost === 0; i++) {
      await sleep(50);
      cost = (await t.services.store.usageTotals(id)).cost;
    }
    const totals = await t.services.store.usageTotals(id);
    expect(totals.completionTokens).toBeGreaterThanOrEqual(5);
    // The prompt (counted: nothing cached is known) and the completion emitted, at their prices.
    expect(cost).toBe(Math.round(totals.promptTokens * 2 + totals.completionTokens * 8));
    expect(await reconciled(account)).toBe(1_000_000 - cost);
  });
});

describe('priced operations', () => {
  it('a failed call bills nothing and gives its reservation back', async () => {
    const { account, key } = await funded('1');
    const res = await t.post(CHAT, { model: 'gen-4.5', messages: [] }, key);
    expect(res.status).toBe(400);
    expect(await reconciled(account)).toBe(1_000_000);
  });
});

describe('priced images and calls', () => {
  it('bills an image by its size and quality, reserved before it is made', async () => {
    const { account, key } = await funded('1');
    const image = (size: string, quality: string) =>
      t.post('/paas/v4/images/generations', { model: 'gen-image', prompt: 'a lighthouse', size, quality }, key);
    expect((await image('1568x1056', 'hd')).status).toBe(200);
    expect((await image('1280x1280', 'hd')).status).toBe(200);
    expect((await image('1280x1280', 'standard')).status).toBe(200);
    expect(await reconciled(account)).toBe(1_000_000 - 400_000 - 250_000 - 100_000);
    // 0.25 left: another 0.40 image does not fit, and nothing is generated for it.
    const jobs = images.jobs.length;
    const refused = await image('1568x1056', 'hd');
    expect(refused.status).toBe(429);
    expect(refused.body['error']).toMatchObject({ code: '1113' });
    expect(images.jobs.length).toBe(jobs);
    expect(await reconciled(account)).toBe(250_000);
  });

  it('an asynchronous image holds its price from submission and is billed once made', async () => {
    const { account, key } = await funded('0.40');
    const submit = () =>
      t.post(
        '/paas/v4/async/images/generations',
        { model: 'gen-image', prompt: 'a fox', size: '1280x1280', quality: 'hd' },
        key,
      );
    const first = await submit();
    expect(first.body).toMatchObject({ task_status: 'PROCESSING' });
    // Held by the task while it waits or runs: a second one does not fit.
    const second = await submit();
    if (second.status === 429) expect(second.body['error']).toMatchObject({ code: '1113' });
    const ids = [first, second].filter((r) => r.status === 200).map((r) => r.body['id'] as string);
    for (const id of ids) {
      for (let i = 0; i < 200; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/paas/v4/async-result/${id}`,
          headers: { authorization: `Bearer ${key}` },
        });
        if ((res.json() as { task_status: string }).task_status !== 'PROCESSING') break;
        await sleep(50);
      }
    }
    expect(ids).toHaveLength(1);
    expect(await reconciled(account)).toBe(150_000);
  });

  it('bills web search per call', async () => {
    const { account, key } = await funded('0.006');
    const search = () => t.post('/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'limits' }, key);
    expect((await search()).status).toBe(200);
    expect((await search()).status).toBe(200);
    const third = await search();
    expect(third.status).toBe(429);
    expect(third.body['error']).toMatchObject({ code: '1113' });
    expect(await reconciled(account)).toBe(0);
  });
});

describe('priced agents', () => {
  it('bills the translation agent the sum of its model calls', async () => {
    const { account, key } = await funded('1');
    const res = await t.post('/v1/agents', agentBody(), key);
    expect(res.status).toBe(200);
    const calls = (res.body['usage'] as { total_calls: number }).total_calls;
    expect(calls).toBeGreaterThanOrEqual(1);
    // Each call: 400 fresh × 2 + 600 cached × 0.5 + 10 × 8 millionths.
    expect(await reconciled(account)).toBe(1_000_000 - calls * 1180);
  });
});

describe('money in /metrics', () => {
  it('counts what calls cost by model and paying account, and the calls refused for money', async () => {
    const { account, key } = await funded('1');
    expect((await chat(key)).status).toBe(200);
    const poor = await funded('0.000100');
    expect((await chat(poor.key)).status).toBe(429);
    await t.services.usage.flush();
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toContain(
      `gen_platform_spend_micros_total{model="gen-4.6",account="${account}",currency="CNY"} 1180\n`,
    );
    expect(text).not.toContain(`account="${poor.account}"`);
    expect(text).toMatch(/gen_platform_budget_refusals_total\{scope="account",what="balance"\} [1-9]/);
  });
});
