import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditService } from '../../../src/services/audit/audit-service.js';
import { BillingService } from '../../../src/services/billing/billing-service.js';
import { WAIT } from '../../../src/services/billing/call-meter.js';
import { PriceBook } from '../../../src/services/billing/price-book.js';
import { priceGeneration, priceGenerationNow } from '../../../src/services/billing/priced-generation.js';
import { RequestUsage } from '../../../src/services/usage/request-usage.js';
import type { MoneyStore } from '../../../src/stores/money.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';
import type { Store } from '../../../src/stores/types.js';

const dir = mkdtempSync(path.join(tmpdir(), 'priced-generation-'));
const store = new SqliteStore(path.join(dir, 'gen-platform.db'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const config = {
  currency: 'CNY',
  time_zone: 'UTC',
  lease_seconds: 30,
  require_balance: true,
  max_redemption_codes: 100,
};
function billingOn(s: Store): BillingService {
  // 1 per prompt token and 2 per output token (minor units: millionths).
  const prices = new PriceBook({
    configured: { 'gen-4.6': { input_per_million: '1', output_per_million: '2' } },
    store: s.money,
    known: () => true,
  });
  const log = { warn() {}, isLevelEnabled: () => false } as never;
  return new BillingService({ config: config as never, store: s, prices, audit: {} as AuditService, log });
}
const engine = {
  capabilities: { tools: false, thinking: false, json: false, vision: false, maxContext: 1000, maxOutput: 100 },
  countTokens: async () => 10,
};
// A bound of 16 + 10 bytes: 26 prompt tokens, and 10 output tokens: 26 + 20 = 46 at worst.
const request = { messages: [{ role: 'user' as const, content: 'ten bytes!' }], tools: [], maxTokens: 10 };
const WORST = 46;

let seq = 0;
/** A call whose key's holder is known (as it is after the key's first call). */
function usageFor(billing: BillingService, accountId: string) {
  const usage = new RequestUsage();
  usage.meter = billing.meter(`k${++seq}`, `call-${seq}`);
  usage.meter.accountId = accountId;
  return usage;
}

describe('priceGenerationNow: a generation priced without waiting', () => {
  it('reserves the worst case at once where the store holds reservations in the process', async () => {
    const billing = billingOn(store);
    await store.money.move({
      accountId: 'now',
      amount: 100,
      kind: 'credit',
      actor: 'system',
      note: '',
      at: 0,
      covered: false,
    });
    const usage = usageFor(billing, 'now');
    const sink = priceGenerationNow(usage, 'gen-4.6', engine, request);
    expect(sink).not.toBe(WAIT);
    expect(sink).not.toBe(usage);
    expect(await store.money.balance('now')).toEqual({ balance: 100, reserved: WORST });
    expect(usage.meter).toMatchObject({ reserved: true, held: WORST });
    await store.money.release(usage.meter!.reservationId);
  });

  it('leaves an unpriced model or a call without a meter as it is', async () => {
    const billing = billingOn(store);
    const usage = usageFor(billing, 'now');
    expect(priceGenerationNow(usage, 'unpriced', engine, request)).toBe(usage);
    const bare = new RequestUsage();
    expect(priceGenerationNow(bare, 'gen-4.6', engine, request)).toBe(bare);
  });

  it('waits, with nothing reserved, when the bound does not fit; the asynchronous way then admits the exact count', async () => {
    const billing = billingOn(store);
    // 40 covers the exact worst case (10 + 20 = 30), not the bound's (46).
    await store.money.move({
      accountId: 'tight',
      amount: 40,
      kind: 'credit',
      actor: 'system',
      note: '',
      at: 0,
      covered: false,
    });
    const usage = usageFor(billing, 'tight');
    expect(priceGenerationNow(usage, 'gen-4.6', engine, request)).toBe(WAIT);
    expect(await store.money.balance('tight')).toEqual({ balance: 40, reserved: 0 });
    expect(usage.meter).toMatchObject({ reserved: false, held: 0 });
    await priceGeneration(usage, 'gen-4.6', engine, request);
    expect(await store.money.balance('tight')).toEqual({ balance: 40, reserved: 30 });
  });

  it('waits for a key whose holder is not known yet, and for a store that reserves by round trip', async () => {
    const billing = billingOn(store);
    const usage = new RequestUsage();
    usage.meter = billing.meter('unknown-key', 'call-x');
    expect(priceGenerationNow(usage, 'gen-4.6', engine, request)).toBe(WAIT);
    // A store without reserveNow (PostgreSQL's reservations are a round trip each).
    const remote = { money: { reserve: store.money.reserve.bind(store.money) } as unknown as MoneyStore } as Store;
    expect(priceGenerationNow(usageFor(billingOn(remote), 'now'), 'gen-4.6', engine, request)).toBe(WAIT);
  });
});
