import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TokenMeter } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Priced work beside a model's tokens, on the embedded engine (SQLite): the web_search tool of a
 * chat completion (and of the Responses API, which runs it), the reader's price per call; and the
 * prompt tokens the embedded engine reused, at the cached price.
 */
const ADMIN = 'billing-tools-admin-key-0123456789';
const CHAT = '/paas/v4/chat/completions';
const UNLIMITED = { concurrent: 0, requests_per_minute: 0, windows: [] };
/** Per token, in minor units: input 20, cached input 5, output 40 (the config's prices per million). */
const PRICES = { input_per_million: '20', cached_input_per_million: '5', output_per_million: '40' };
const SEARCH = 3_000;
const READ = 5_000;

const PAGE = `<!doctype html><html><head><title>Harbour Report</title></head><body>
<article><h1>Harbour Report</h1>${'<p>The fishing fleet returned early because the swell rose faster than forecast along the coast.</p>'.repeat(6)}</article>
</body></html>`;

let t: TestApp;
let modelsDir: string;
let site: http.Server;
let pageUrl: string;

beforeAll(async () => {
  modelsDir = await mkdtemp(join(tmpdir(), 'billing-tools-models-'));
  const paths = await writeTestModels(modelsDir);
  site = http.createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/harbour`;
  t = await createTestApp({
    security: { admin_key: ADMIN },
    accounts: { concurrent: 0, requests_per_minute: 0 },
    reader: { allow_hosts: ['127.0.0.1'] },
    models: {
      'gen-4.6': {
        deployments: [{ engine: 'llama-cpp', model: paths.programmed, threads: 1, context_size: 2048, parallel: 1 }],
      },
    },
    prices: { 'gen-4.6': PRICES, web_search: { per_call: '0.003' }, reader: { per_call: '0.005' } },
  });
  await t.services.search.index.upsert([
    {
      url: 'https://coast.example.com/lighthouse',
      title: 'Lighthouses of the coast',
      content: 'A lighthouse keeper trims the lamp at dusk.',
    },
  ]);
  // The model loads on first use: here, not inside the first test.
  await t.services.chat!.engineFor('gen-4.6');
}, 120_000);
afterAll(async () => {
  await t?.close();
  site?.close();
  if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
});

async function admin(url: string, body: unknown) {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  expect(res.statusCode, res.payload).toBe(200);
  return res.json() as Record<string, unknown>;
}

/** A new account with `amount` credited, and a key it holds. */
async function funded(amount: string): Promise<{ account: string; key: string; keyId: string }> {
  const made = await admin('/admin/accounts', { name: 'Payer', email: `payer-${Math.random()}@example.test` });
  const account = made['id'] as string;
  if (amount !== '0') await admin(`/admin/accounts/${account}/credit`, { amount });
  const key = (await admin('/admin/keys', { name: 'payer', account, limits: UNLIMITED }))['key'] as string;
  return { account, key, keyId: key.split('.')[0]! };
}

/** The account's balance: the sum of its ledger, nothing left reserved, never below zero. */
async function reconciled(account: string): Promise<number> {
  await t.services.usage.flush();
  const money = t.services.store.money;
  const { balance, reserved } = await money.balance(account);
  expect(await money.ledgerSum(account)).toBe(balance);
  expect(reserved).toBe(0);
  expect(balance).toBeGreaterThanOrEqual(0);
  return balance;
}

/** The amounts of the account's `usage` ledger entries, newest first. */
async function usageEntries(account: string): Promise<number[]> {
  await t.services.usage.flush();
  return (await t.services.store.money.ledger({ accountId: account, kind: 'usage', limit: 50 })).map((e) => e.amount);
}

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
}

const tokenCost = (u: Usage) =>
  (u.prompt_tokens - u.prompt_tokens_details.cached_tokens) * 20 +
  u.prompt_tokens_details.cached_tokens * 5 +
  u.completion_tokens * 40;

const ask = (content: string) => [{ role: 'user', content }];

describe('the web_search tool of a chat completion', { timeout: 120_000 }, () => {
  it('is billed at the web_search price per call, beside the tokens, in one ledger entry with the record', async () => {
    const { account, key, keyId } = await funded('1');
    const res = await t.post(
      CHAT,
      {
        model: 'gen-4.6',
        messages: ask('lighthouse keeper'),
        max_tokens: 8,
        tools: [{ type: 'web_search', web_search: {} }],
      },
      key,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const cost = tokenCost(res.body['usage'] as Usage) + SEARCH;
    expect(await usageEntries(account)).toEqual([-cost]);
    expect((await t.services.store.usageTotals(keyId)).cost).toBe(cost);
    expect(await reconciled(account)).toBe(1_000_000 - cost);
  });

  it('costs nothing for a search that does not run (enable: false)', async () => {
    const { account, key } = await funded('1');
    const res = await t.post(
      CHAT,
      {
        model: 'gen-4.6',
        messages: ask('lighthouse keeper'),
        max_tokens: 8,
        tools: [{ type: 'web_search', web_search: { enable: false } }],
      },
      key,
    );
    expect(res.status).toBe(200);
    expect(await usageEntries(account)).toEqual([-tokenCost(res.body['usage'] as Usage)]);
  });

  it('is reserved before the search runs: 1113 when the balance does not cover it, nothing billed', async () => {
    const { account, key } = await funded('0.002');
    const search = vi.spyOn(t.services.search, 'search');
    const res = await t.post(
      CHAT,
      {
        model: 'gen-4.6',
        messages: ask('lighthouse keeper'),
        max_tokens: 8,
        tools: [{ type: 'web_search', web_search: { search_result: true } }],
      },
      key,
    );
    expect(res.status).toBe(429);
    expect(res.body['error']).toMatchObject({ code: '1113' });
    expect(String((res.body['error'] as { message: string }).message)).toMatch(/balance/i);
    expect(search).not.toHaveBeenCalled();
    search.mockRestore();
    expect(await usageEntries(account)).toEqual([]);
    expect(await reconciled(account)).toBe(2_000);
  });

  it('is billed when the Responses API runs it', async () => {
    const { account, key } = await funded('1');
    // The search runs when the model calls it: room for the call, then the answer.
    const res = await t.post(
      '/paas/v4/responses',
      { model: 'gen-4.6', input: 'lighthouse keeper', max_output_tokens: 64, tools: [{ type: 'web_search' }] },
      key,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const usage = res.body['usage'] as {
      input_tokens: number;
      output_tokens: number;
      input_tokens_details: { cached_tokens: number };
    };
    const cached = usage.input_tokens_details.cached_tokens;
    const cost = (usage.input_tokens - cached) * 20 + cached * 5 + usage.output_tokens * 40 + SEARCH;
    expect(await usageEntries(account)).toEqual([-cost]);
    expect(await reconciled(account)).toBe(1_000_000 - cost);
  });
});

describe('the reader', { timeout: 120_000 }, () => {
  it('is billed its price per call, and refused with 1113 once the balance is spent', async () => {
    const { account, key, keyId } = await funded('0.010');
    expect((await t.post('/paas/v4/reader', { url: pageUrl }, key)).status).toBe(200);
    // Served from the cache the second time: a call all the same.
    expect((await t.post('/paas/v4/reader', { url: pageUrl }, key)).status).toBe(200);
    const third = await t.post('/paas/v4/reader', { url: pageUrl }, key);
    expect(third.status).toBe(429);
    expect(third.body['error']).toMatchObject({ code: '1113' });
    expect(await usageEntries(account)).toEqual([-READ, -READ]);
    expect((await t.services.store.usageTotals(keyId)).cost).toBe(2 * READ);
    expect(await reconciled(account)).toBe(0);
  });
});

describe('cached prompt tokens on the embedded engine (llama.cpp prompt reuse)', { timeout: 120_000 }, () => {
  it('bills the prefix the engine reused at the cached price, and reports only what it did not evaluate', async () => {
    const { account, key } = await funded('1');
    // node-llama-cpp meters every token it decodes: those without logits as input. The prompt's
    // last token is decoded for its logits (metered as output), so a prompt of n tokens of which c
    // came from the sequence's cache decodes n - c - 1 input tokens.
    const decoded = vi.spyOn(TokenMeter, 'useTokens');
    const messages = [
      { role: 'system', content: `You keep the harbour log, entry ${Math.random().toString(36).slice(2)}.` },
      { role: 'user', content: 'What did the fleet do today?' },
    ];
    const call = async () => {
      decoded.mockClear();
      const res = await t.post(CHAT, { model: 'gen-4.6', messages, max_tokens: 8, do_sample: false }, key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      let input = 0;
      for (const [, tokens, type] of decoded.mock.calls) if (type === 'input') input += tokens;
      return { usage: res.body['usage'] as Usage, input };
    };
    try {
      const first = await call();
      const second = await call();
      for (const { usage, input } of [first, second]) {
        expect(usage.prompt_tokens_details.cached_tokens).toBe(usage.prompt_tokens - input - 1);
      }
      // The same prompt again: all of it but the last token is reused.
      expect(second.usage.prompt_tokens).toBe(first.usage.prompt_tokens);
      expect(second.usage.prompt_tokens_details.cached_tokens).toBe(second.usage.prompt_tokens - 1);
      expect(second.usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(
        first.usage.prompt_tokens_details.cached_tokens,
      );
      const costs = [tokenCost(first.usage), tokenCost(second.usage)];
      expect(costs[1]).toBeLessThan(costs[0]!);
      expect(await usageEntries(account)).toEqual([-costs[1]!, -costs[0]!]);
      expect(await reconciled(account)).toBe(1_000_000 - costs[0]! - costs[1]!);
    } finally {
      decoded.mockRestore();
    }
  });
});
