import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const ADMIN_KEY = 'admin-money-suite-admin-key-0123';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    security: { admin_key: ADMIN_KEY },
    billing: { currency: 'EUR' },
    prices: { web_search: { per_call: '0.01' }, 'gen-4.6': { input_per_million: '2', output_per_million: '8' } },
  });
});
afterAll(() => t.close());

async function admin(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${ADMIN_KEY}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { data?: Record<string, unknown>[] } };
}

const newAccount = async (name = 'Team') => {
  const res = await admin('POST', '/admin/accounts', { name, email: `${name}-${Math.random()}@example.test` });
  expect(res.status).toBe(200);
  return res.body['id'] as string;
};

describe('accounts and balances over /admin', () => {
  it('creates an account whose balance starts at zero', async () => {
    const res = await admin('POST', '/admin/accounts', { name: 'Research', email: 'research@example.test' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Research', email: 'research@example.test', disabled_at: null });
    expect(typeof res.body['password']).toBe('string');
    const id = res.body['id'] as string;
    expect((await admin('GET', `/admin/accounts/${id}/balance`)).body).toEqual({
      account_id: id,
      balance: '0.00',
      reserved: '0.00',
      available: '0.00',
      currency: 'EUR',
    });
    const list = await admin('GET', '/admin/accounts');
    expect(list.body.data!.find((a) => a['id'] === id)).toMatchObject({ balance: '0.00', reserved: '0.00' });
  });

  it('credits and debits exactly, each a ledger entry, the balance the sum of the ledger', async () => {
    const id = await newAccount();
    const credit = await admin('POST', `/admin/accounts/${id}/credit`, { amount: '37.00', note: 'invoice 17' });
    expect(credit.status).toBe(200);
    expect(credit.body).toMatchObject({
      account_id: id,
      kind: 'credit',
      amount: '37.00',
      balance_after: '37.00',
      currency: 'EUR',
      note: 'invoice 17',
      actor: 'key:admin',
      key_id: null,
    });
    // 0.1 + 0.2 is 0.3 here: no float ever holds an amount.
    await admin('POST', `/admin/accounts/${id}/credit`, { amount: '0.1' });
    await admin('POST', `/admin/accounts/${id}/credit`, { amount: '0.2' });
    const debit = await admin('POST', `/admin/accounts/${id}/credit`, { amount: '-7.000001', note: 'refund' });
    expect(debit.body).toMatchObject({ kind: 'debit', amount: '-7.000001', balance_after: '30.299999' });
    expect((await admin('GET', `/admin/accounts/${id}/balance`)).body['balance']).toBe('30.299999');
    const ledger = await admin('GET', `/admin/ledger?account=${id}`);
    expect(ledger.body.data!.map((e) => e['amount'])).toEqual(['-7.000001', '0.20', '0.10', '37.00']);
    expect(await t.services.store.money.ledgerSum(id)).toBe(30_299_999);
    const page = await admin('GET', `/admin/ledger?account=${id}&limit=2`);
    expect(page.body.data!.length).toBe(2);
    const rest = await admin('GET', `/admin/ledger?account=${id}&limit=2&before=${page.body['next_before']}`);
    expect(rest.body.data!.map((e) => e['amount'])).toEqual(['0.10', '37.00']);
  });

  it('refuses bad amounts and overdrawing debits with the field named, and unknown accounts', async () => {
    const id = await newAccount();
    for (const amount of ['1e3', '0.0000001', '', 'abc', '1,5', '12345678901234']) {
      const res = await admin('POST', `/admin/accounts/${id}/credit`, { amount });
      expect(res.status, amount).toBe(400);
      expect(JSON.stringify(res.body)).toContain('amount');
    }
    expect((await admin('POST', `/admin/accounts/${id}/credit`, { amount: '0' })).body).toMatchObject({
      error: { code: '1214' },
    });
    const overdraw = await admin('POST', `/admin/accounts/${id}/credit`, { amount: '-0.01' });
    expect(overdraw.status).toBe(400);
    expect(JSON.stringify(overdraw.body)).toContain('available balance');
    expect((await admin('GET', '/admin/accounts/nope/balance')).status).toBe(404);
    expect((await admin('POST', '/admin/accounts/nope/credit', { amount: '1' })).status).toBe(404);
    // The admin's own account exists always.
    expect((await admin('GET', '/admin/accounts/admin/balance')).status).toBe(200);
  });
});

describe('budgets over /admin', () => {
  it('sets, shows and removes the budget of an account and of a key', async () => {
    const id = await newAccount();
    const set = await admin('PUT', `/admin/accounts/${id}/budget`, { daily: '5', monthly: '100.50' });
    expect(set.body).toMatchObject({
      scope: `account:${id}`,
      budget: { total: null, daily: '5.00', monthly: '100.50' },
      spent: { total: '0.00', day: '0.00', month: '0.00' },
      reserved: '0.00',
      currency: 'EUR',
      time_zone: 'UTC',
    });
    expect((await admin('GET', `/admin/accounts/${id}/budget`)).body['budget']).toEqual({
      total: null,
      daily: '5.00',
      monthly: '100.50',
    });
    const keyId = t.key.split('.')[0]!;
    expect((await admin('PUT', `/admin/keys/${keyId}/budget`, { total: '1' })).body['budget']).toEqual({
      total: '1.00',
      daily: null,
      monthly: null,
    });
    expect((await admin('GET', `/admin/keys/${keyId}/usage`)).body['budget']).toMatchObject({ scope: `key:${keyId}` });
    await admin('PUT', `/admin/keys/${keyId}/budget`, {});
    expect((await admin('GET', `/admin/keys/${keyId}/usage`)).body['budget']).toBeNull();
    expect((await admin('PUT', `/admin/keys/${'0'.repeat(32)}/budget`, {})).status).toBe(404);
    expect((await admin('PUT', `/admin/accounts/${id}/budget`, { daily: '-1' })).status).toBe(400);
  });
});

describe('prices over /admin', () => {
  it('lists the configured prices and edits them over the configuration', async () => {
    const list = await admin('GET', '/admin/prices');
    expect(list.body['currency']).toBe('EUR');
    expect(list.body.data).toContainEqual({
      code: 'web_search',
      price: { per_call: '0.01' },
      source: 'config',
      configured: null,
      updated_at: null,
      updated_by: null,
    });
    const set = await admin('PUT', '/admin/prices/web_search', { per_call: '0.02' });
    expect(set.body).toMatchObject({
      code: 'web_search',
      price: { per_call: '0.02' },
      source: 'edited',
      configured: { per_call: '0.01' },
      updated_by: 'key:admin',
    });
    expect(t.services.billing.priceOf('web_search')?.perCall).toBe(20_000);
    const free = await admin('PUT', '/admin/prices/web_search', {});
    expect(free.body).toMatchObject({ price: null, source: 'edited' });
    expect(t.services.billing.priceOf('web_search')).toBeUndefined();
    const reset = await admin('DELETE', '/admin/prices/web_search');
    expect(reset.body.data).toContainEqual(
      expect.objectContaining({ code: 'web_search', price: { per_call: '0.01' } }),
    );
    expect((await admin('DELETE', '/admin/prices/web_search')).status).toBe(404);
    const added = await admin('PUT', '/admin/prices/reader', { per_call: '0.005' });
    expect(added.body).toMatchObject({ price: { per_call: '0.005' }, source: 'edited', configured: null });
    await admin('DELETE', '/admin/prices/reader');
  });

  it('refuses unknown codes and bad prices with the field named', async () => {
    const unknown = await admin('PUT', '/admin/prices/gen-9', { per_call: '1' });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body)).toContain('gen-9');
    const bad = await admin('PUT', '/admin/prices/gen-4.6', { input_per_million: '1.1234567' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('input_per_million');
    expect((await admin('PUT', '/admin/prices/gen-4.6', { price: '1' })).status).toBe(400);
  });
});

describe('redemption codes over /admin', () => {
  it('creates a batch, lists it and its codes, and counts redemptions', async () => {
    const made = await admin('POST', '/admin/codes', { amount: '5', count: 3, note: 'workshop' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ amount: '5.00', currency: 'EUR', count: 3, redeemed: 0, note: 'workshop' });
    const codes = made.body['codes'] as string[];
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^GPC(-[0-9A-HJKMNP-TV-Z]{4}){4}$/);
    const id = await newAccount();
    await t.services.money.redeem(codes[0]!.toLowerCase(), id, { id: `account:${id}` });
    const batch = await admin('GET', `/admin/codes/${made.body['id']}`);
    expect(batch.body['batch']).toMatchObject({ redeemed: 1 });
    expect((batch.body['codes'] as { code: string; redeemed_by: string | null }[]).map((c) => c.code).sort()).toEqual(
      [...codes].sort(),
    );
    expect(
      (batch.body['codes'] as { code: string; redeemed_by: string | null }[]).find((c) => c.code === codes[0])
        ?.redeemed_by,
    ).toBe(id);
    expect((await admin('GET', '/admin/codes')).body.data!.some((b) => b['id'] === made.body['id'])).toBe(true);
    expect((await admin('GET', `/admin/accounts/${id}/balance`)).body['balance']).toBe('5.00');
  });

  it('refuses a batch too large, expired at birth, or of a bad amount', async () => {
    expect((await admin('POST', '/admin/codes', { amount: '1', count: 10_001 })).status).toBe(400);
    expect((await admin('POST', '/admin/codes', { amount: '1', count: 1, expires_at: 1 })).status).toBe(400);
    expect((await admin('POST', '/admin/codes', { amount: '-1', count: 1 })).status).toBe(400);
    expect((await admin('GET', '/admin/codes/nope')).status).toBe(404);
  });
});

describe('the money API is the admin’s', () => {
  it('refuses a key that is not an admin key', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/admin/prices',
      headers: { authorization: `Bearer ${t.key}` },
    });
    expect(res.statusCode).toBe(403);
  });

  it('documents every reply in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
    };
    for (const [path, method] of [
      ['/admin/accounts', 'post'],
      ['/admin/accounts/{id}/balance', 'get'],
      ['/admin/accounts/{id}/credit', 'post'],
      ['/admin/ledger', 'get'],
      ['/admin/prices', 'get'],
      ['/admin/codes', 'post'],
      ['/admin/keys/{id}/usage', 'get'],
      ['/admin/keys/{id}/budget', 'put'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.responses['200']?.content, `${method} ${path}`).toMatchObject({
        'application/json': { schema: { type: 'object' } },
      });
    }
  });
});

describe('money’s acts in the audit log', () => {
  it('records credits, price changes, budgets, code batches and redemptions, never a code', async () => {
    const id = await newAccount('Audited');
    await admin('POST', `/admin/accounts/${id}/credit`, { amount: '2.50', note: 'audit me' });
    await admin('PUT', '/admin/prices/tokenizer', { per_call: '0.001' });
    await admin('DELETE', '/admin/prices/tokenizer');
    await admin('PUT', `/admin/accounts/${id}/budget`, { total: '9' });
    const batch = await admin('POST', '/admin/codes', { amount: '1', count: 2 });
    const codes = batch.body['codes'] as string[];
    await t.services.money.redeem(codes[0]!, id, { id: `account:${id}`, address: '192.0.2.7' });
    const audit = await admin('GET', '/admin/audit?action=*');
    const records = audit.body.data as {
      action: string;
      actor: string;
      target: string;
      before: unknown;
      after: unknown;
    }[];
    const actions = records.map((r) => r.action);
    for (const action of ['balance.credit', 'price.set', 'price.reset', 'budget.set', 'codes.create', 'code.redeem']) {
      expect(actions, action).toContain(action);
    }
    const credit = records.find((r) => r.action === 'balance.credit' && r.target === `account:${id}`)!;
    expect(credit).toMatchObject({
      actor: 'key:admin',
      before: { balance: '0.00' },
      after: { amount: '2.50', balance: '2.50', note: 'audit me' },
    });
    expect(records.find((r) => r.action === 'code.redeem')).toMatchObject({ actor: `account:${id}` });
    for (const code of codes) expect(JSON.stringify(audit.body)).not.toContain(code.slice(4));
  });
});
