import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, type ConsoleClient, signIn } from './support.js';

describe('console API: billing', () => {
  let t: TestApp;
  let admin: ConsoleClient;
  let holder: ConsoleClient;
  let holderId: string;
  let holderKey: string;
  beforeAll(async () => {
    t = await createTestApp({ security: { admin_key: ADMIN_KEY }, prices: { web_search: { per_call: '0.01' } } });
    admin = await signIn(t.app, { admin_key: ADMIN_KEY });
    const made = await admin.call('POST', '/console/api/accounts', { name: 'Ada', email: 'ada@example.test' });
    holderId = made.body['id'] as string;
    holder = await signIn(t.app, { email: 'ada@example.test', password: made.body['password'] as string });
    holderKey = (await holder.call('POST', '/console/api/keys', { name: 'ada key' })).body['id'] as string;
  });
  afterAll(() => t.close());

  it('shows each principal its own balance, and the admin tops up any account', async () => {
    expect((await holder.call('GET', '/console/api/billing')).body).toMatchObject({
      account_id: holderId,
      balance: '0.00',
      available: '0.00',
      currency: 'CNY',
      budget: null,
      priced: true,
    });
    const top = await admin.call('POST', `/console/api/billing/accounts/${holderId}/credit`, {
      amount: '12.50',
      note: 'welcome',
    });
    expect(top.body).toMatchObject({ kind: 'credit', amount: '12.50', balance_after: '12.50', note: 'welcome' });
    expect((await holder.call('GET', '/console/api/billing')).body['balance']).toBe('12.50');
    expect((await admin.call('GET', '/console/api/billing')).body['account_id']).toBe('admin');
    const accounts = (await admin.call('GET', '/console/api/billing/accounts')).body['data'] as Record<
      string,
      unknown
    >[];
    expect(accounts[0]).toMatchObject({ id: 'admin', name: 'Admin' });
    expect(accounts.find((a) => a['id'] === holderId)).toMatchObject({ balance: '12.50', budget: null });
  });

  it('keeps the admin’s tools from account holders', async () => {
    for (const [method, url, body] of [
      ['POST', `/console/api/billing/accounts/${holderId}/credit`, { amount: '100' }],
      ['GET', '/console/api/billing/accounts', undefined],
      ['POST', '/console/api/billing/codes', { amount: '1', count: 1 }],
      ['GET', '/console/api/billing/codes', undefined],
      ['POST', '/console/api/billing/prices/web_search', {}],
      ['GET', '/console/api/billing/prices', undefined],
      ['POST', `/console/api/billing/keys/${holderKey}/budget`, { daily: '1' }],
    ] as const) {
      expect((await holder.call(method, url, body)).status, `${method} ${url}`).toBe(403);
    }
    expect((await holder.call('GET', '/console/api/billing/ledger?account=admin')).status).toBe(403);
  });

  it('lets the holder redeem a code the admin made, once, into the ledger', async () => {
    const batch = await admin.call('POST', '/console/api/billing/codes', { amount: '5', count: 2, note: 'meetup' });
    const [code] = batch.body['codes'] as string[];
    const redeemed = await holder.call('POST', '/console/api/billing/redeem', { code: ` ${code!.toLowerCase()} ` });
    expect(redeemed.body).toMatchObject({ kind: 'redeem', amount: '5.00', note: 'redemption code: meetup' });
    const again = await holder.call('POST', '/console/api/billing/redeem', { code });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      error: { code: '1214', message: 'Invalid code: the code was redeemed already' },
    });
    const ledger = await holder.call('GET', '/console/api/billing/ledger');
    expect((ledger.body['data'] as { kind: string }[]).map((e) => e.kind)).toEqual(['redeem', 'credit']);
    const codes = await admin.call('GET', `/console/api/billing/codes/${batch.body['id']}`);
    expect(
      (codes.body['data'] as { redeemed_by: string | null }[]).filter((c) => c.redeemed_by === holderId),
    ).toHaveLength(1);
  });

  it('stops guessing codes after ten failures in a quarter hour', async () => {
    const other = await admin.call('POST', '/console/api/accounts', { name: 'Guesser', email: 'guess@example.test' });
    const guesser = await signIn(t.app, { email: 'guess@example.test', password: other.body['password'] as string });
    for (let i = 0; i < 10; i++) {
      expect(
        (await guesser.call('POST', '/console/api/billing/redeem', { code: `GPC-0000-0000-0000-000${i}` })).status,
      ).toBe(400);
    }
    const blocked = await guesser.call('POST', '/console/api/billing/redeem', { code: 'GPC-0000-0000-0000-0000' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('shows the spend and budget of the keys each principal sees, and the admin sets them', async () => {
    const set = await admin.call('POST', `/console/api/billing/keys/${holderKey}/budget`, { daily: '2', total: null });
    expect(set.body).toMatchObject({ budget: { daily: '2.00', monthly: null, total: null } });
    const seen = await holder.call('GET', '/console/api/billing/keys');
    expect(seen.body['data']).toEqual([
      {
        key_id: holderKey,
        spent: { day: '0.00', month: '0.00', total: '0.00' },
        budget: { total: null, daily: '2.00', monthly: null },
      },
    ]);
    const usage = await holder.call('GET', '/console/api/usage?days=7');
    expect(usage.body['currency']).toBe('CNY');
  });

  it('lets the admin edit prices from the console', async () => {
    const set = await admin.call('POST', '/console/api/billing/prices/reader', { per_call: '0.002' });
    expect(set.body).toMatchObject({ code: 'reader', price: { per_call: '0.002' }, source: 'edited' });
    const list = await admin.call('GET', '/console/api/billing/prices');
    expect((list.body['data'] as { code: string }[]).map((p) => p.code)).toEqual(['reader', 'web_search']);
    await admin.call('DELETE', '/console/api/billing/prices/reader');
    expect(t.services.billing.priceOf('reader')).toBeUndefined();
  });
});
