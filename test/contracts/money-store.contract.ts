import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MoneyStore, ReservationRequest } from '../../src/stores/money.js';
import type { Store, UsageRecord } from '../../src/stores/types.js';

export interface MoneyStoreFixture {
  store: Store;
  close(): Promise<void>;
}

const periods = { day: '2026-03-01', month: '2026-03' };
/** 2026-03-01T12:00:00Z: the day and month of `periods` in UTC. */
const NOON = Date.UTC(2026, 2, 1, 12);

let seq = 0;
const fresh = (prefix: string) => `${prefix}${++seq}${Math.random().toString(36).slice(2, 8)}`;

const reservation = (over: Partial<ReservationRequest> & { accountId: string }): ReservationRequest => ({
  id: fresh('r'),
  keyId: 'k0',
  amount: 100,
  owner: 'owner-a',
  leaseMs: 60_000,
  periods,
  requireBalance: true,
  ...over,
});

const record = (over: Partial<UsageRecord>): UsageRecord => ({
  keyId: 'k0',
  operation: 'chat.completions',
  model: 'gen-4.6',
  requestId: undefined,
  promptTokens: 10,
  completionTokens: 5,
  status: 200,
  latencyMs: 1,
  createdAt: NOON,
  journalId: fresh('j'),
  ...over,
});

/** `store.money`'s contract: every store implementation runs this same suite. */
export function runMoneyStoreContract(label: string, setup: () => Promise<MoneyStoreFixture>): void {
  describe(`money store contract: ${label}`, () => {
    let f: MoneyStoreFixture;
    let m: MoneyStore;
    beforeAll(async () => {
      f = await setup();
      m = f.store.money;
    });
    afterAll(() => f.close());

    const credit = (accountId: string, amount: number, covered = true) =>
      m.move({
        accountId,
        amount,
        kind: amount < 0 ? 'debit' : 'credit',
        actor: 'key:admin',
        note: 'test',
        at: NOON,
        covered,
      });

    it('credits and debits with a ledger entry each, the balance always the sum of the ledger', async () => {
      const a = fresh('acct');
      expect(await m.balance(a)).toEqual({ balance: 0, reserved: 0 });
      const first = await credit(a, 37_000_000);
      expect(first.ok && first.entry).toMatchObject({
        accountId: a,
        amount: 37_000_000,
        balanceAfter: 37_000_000,
        kind: 'credit',
      });
      const debit = await credit(a, -7_000_000);
      expect(debit.ok && debit.entry).toMatchObject({ amount: -7_000_000, balanceAfter: 30_000_000, kind: 'debit' });
      expect(await credit(a, -30_000_001)).toEqual({ ok: false, balance: { balance: 30_000_000, reserved: 0 } });
      const overdraw = await credit(a, -30_000_001, false);
      expect(overdraw.ok && overdraw.entry.balanceAfter).toBe(-1);
      expect((await m.balance(a)).balance).toBe(-1);
      expect(await m.ledgerSum(a)).toBe(-1);
      const entries = await m.ledger({ accountId: a, limit: 10 });
      expect(entries.map((e) => e.amount)).toEqual([-30_000_001, -7_000_000, 37_000_000]);
      expect((await m.ledger({ accountId: a, kind: 'debit', limit: 10 })).length).toBe(2);
      expect((await m.ledger({ accountId: a, beforeId: entries[1]!.id, limit: 10 })).map((e) => e.id)).toEqual([
        entries[2]!.id,
      ]);
    });

    it('holds a reservation only when the balance covers it, and counts it until released', async () => {
      const a = fresh('acct');
      await credit(a, 250);
      const r1 = reservation({ accountId: a, amount: 200 });
      expect(await m.reserve(r1)).toBeUndefined();
      expect(await m.balance(a)).toEqual({ balance: 250, reserved: 200 });
      expect(await m.reserve(reservation({ accountId: a, amount: 51 }))).toEqual({
        what: 'balance',
        scope: `account:${a}`,
        limit: 250,
        used: 200,
      });
      expect(await m.reserve(reservation({ accountId: a, amount: 51, requireBalance: false }))).toBeUndefined();
      // The same id adds to its reservation.
      expect(await m.reserve({ ...r1, amount: 1, requireBalance: false })).toBeUndefined();
      expect((await m.balance(a)).reserved).toBe(252);
      await m.release(r1.id, 150);
      expect((await m.balance(a)).reserved).toBe(102);
      await m.release(r1.id);
      await m.release(r1.id);
      expect((await m.balance(a)).reserved).toBe(51);
      expect(await m.reservedForKey('k0')).toBeGreaterThanOrEqual(51);
    });

    it('admits exactly as many concurrent reservations as the balance covers', async () => {
      const a = fresh('acct');
      await credit(a, 37 * 1000);
      const results = await Promise.all(
        Array.from({ length: 60 }, () => m.reserve(reservation({ accountId: a, amount: 1000 }))),
      );
      expect(results.filter((r) => r === undefined).length).toBe(37);
      expect(await m.balance(a)).toEqual({ balance: 37_000, reserved: 37_000 });
    });

    it('checks the budgets of the account and of the key: total, month and day', async () => {
      const a = fresh('acct');
      const key = fresh('key');
      await credit(a, 1_000_000);
      await m.setBudget(`key:${key}`, { total: undefined, daily: 500, monthly: undefined }, NOON);
      await m.setBudget(`account:${a}`, { total: 10_000, daily: undefined, monthly: 2_000 }, NOON);
      expect((await m.budgets()).get(`key:${key}`)).toEqual({ total: undefined, daily: 500, monthly: undefined });
      const hold = reservation({ accountId: a, keyId: key, amount: 400 });
      expect(await m.reserve(hold)).toBeUndefined();
      expect(await m.reserve(reservation({ accountId: a, keyId: key, amount: 101 }))).toEqual({
        what: 'daily',
        scope: `key:${key}`,
        limit: 500,
        used: 400,
      });
      // Spent today counts too: the call settles at 300 and 200 of the day is left.
      await f.store.recordUsage([record({ keyId: key, accountId: a, reservationId: hold.id, cost: 300 })]);
      expect(await m.reservedForKey(key)).toBe(0);
      expect(await m.reserve(reservation({ accountId: a, keyId: key, amount: 201 }))).toMatchObject({
        what: 'daily',
        used: 300,
      });
      // Another key of the account meets the account's monthly budget.
      expect(await m.reserve(reservation({ accountId: a, keyId: fresh('key'), amount: 1_701 }))).toEqual({
        what: 'monthly',
        scope: `account:${a}`,
        limit: 2_000,
        used: 300,
      });
      // Another day: the key's day is fresh, the month is not.
      const tomorrow = { day: '2026-03-02', month: '2026-03' };
      expect(
        await m.reserve(reservation({ accountId: a, keyId: key, amount: 500, periods: tomorrow })),
      ).toBeUndefined();
      const spend = await m.spendOf([`key:${key}`, `account:${a}`], periods);
      expect(spend.get(`key:${key}`)).toEqual({ total: 300, day: 300, month: 300 });
      await m.setBudget(`key:${key}`, undefined, NOON);
      expect((await m.budgets()).has(`key:${key}`)).toBe(false);
    });

    it('settles a call once: its cost debited with a ledger entry, its reservation released, a replay ignored', async () => {
      const a = fresh('acct');
      const key = fresh('key');
      await credit(a, 10_000);
      const hold = reservation({ accountId: a, keyId: key, amount: 5_000 });
      expect(await m.reserve(hold)).toBeUndefined();
      const call = record({ keyId: key, accountId: a, reservationId: hold.id, cost: 1_234 });
      const free = record({ keyId: key, accountId: a, model: 'unpriced' });
      await f.store.recordUsage([call, free]);
      await f.store.recordUsage([call]);
      expect(await m.balance(a)).toEqual({ balance: 10_000 - 1_234, reserved: 0 });
      const [entry] = await m.ledger({ accountId: a, kind: 'usage', limit: 5 });
      expect(entry).toMatchObject({
        amount: -1_234,
        balanceAfter: 8_766,
        kind: 'usage',
        actor: `key:${key}`,
        note: 'chat.completions gen-4.6',
        ref: call.journalId,
        keyId: key,
        at: NOON,
      });
      expect(await m.ledgerSum(a)).toBe(8_766);
      const totals = await f.store.usageTotals(key);
      expect(totals.cost).toBe(1_234);
      // A record whose reservation was released already (its lease ran out) is still billed.
      await f.store.recordUsage([record({ keyId: key, accountId: a, reservationId: 'gone', cost: 66 })]);
      expect(await m.balance(a)).toEqual({ balance: 8_700, reserved: 0 });
    });

    it('writes one ledger entry per record of a large batch, in the order of the batch, each from its own record', async () => {
      const accounts = [fresh('acct'), fresh('acct')];
      const keys = [fresh('key'), fresh('key'), fresh('key')];
      for (const a of accounts) await credit(a, 1_000_000);
      // More records than one statement holds, interleaved over accounts and keys, some without a model.
      const records: UsageRecord[] = [];
      for (let i = 0; i < 150; i++) {
        const accountId = accounts[i % 2]!;
        const keyId = keys[i % 3]!;
        const hold = reservation({ accountId, keyId, amount: 100 });
        expect(await m.reserve(hold)).toBeUndefined();
        const model = i % 5 === 0 ? undefined : `model-${i % 4}`;
        records.push(
          record({ keyId, accountId, model, reservationId: hold.id, cost: 1 + (i % 7), createdAt: NOON + i }),
        );
      }
      await f.store.recordUsage(records);
      for (const a of accounts) {
        const mine = records.filter((r) => r.accountId === a);
        const entries = (await m.ledger({ accountId: a, kind: 'usage', limit: 200 })).reverse();
        expect(entries.map((e) => e.ref)).toEqual(mine.map((r) => r.journalId));
        let balance = 1_000_000;
        for (const [i, e] of entries.entries()) {
          const r = mine[i]!;
          balance -= r.cost!;
          expect(e).toMatchObject({
            amount: -r.cost!,
            balanceAfter: balance,
            actor: `key:${r.keyId}`,
            note: r.model ? `chat.completions ${r.model}` : 'chat.completions',
            keyId: r.keyId,
            at: r.createdAt,
          });
        }
        expect(await m.balance(a)).toEqual({ balance, reserved: 0 });
        expect(await m.ledgerSum(a)).toBe(balance);
      }
    });

    it('bills a record settled after its lease ran out only as far as the balance, less what others hold, covers it', async () => {
      const a = fresh('acct');
      const key = fresh('key');
      await credit(a, 1_000);
      // A process reserved 800, journaled its call's record and died; the lease ran out.
      const dead = reservation({ accountId: a, keyId: key, amount: 800, owner: fresh('dead'), leaseMs: 1 });
      expect(await m.reserve(dead)).toBeUndefined();
      await new Promise((r) => setTimeout(r, 20));
      expect(await m.releaseExpired()).toBeGreaterThanOrEqual(1);
      // Meanwhile another call was admitted against the same money.
      const live = reservation({ accountId: a, keyId: key, amount: 900 });
      expect(await m.reserve(live)).toBeUndefined();
      // The journal is replayed: 100 is all the balance covers beside what the live call holds.
      const late = record({ keyId: key, accountId: a, reservationId: dead.id, cost: 500 });
      await f.store.recordUsage([late]);
      await f.store.recordUsage([late]);
      expect(await m.balance(a)).toEqual({ balance: 900, reserved: 900 });
      const [entry] = await m.ledger({ accountId: a, kind: 'usage', limit: 5 });
      expect(entry).toMatchObject({ amount: -100, balanceAfter: 900, ref: late.journalId });
      expect(entry?.note).toMatch(/settled late/);
      expect((await f.store.usageTotals(key)).cost).toBe(100);
      // The live call is billed what it held; a late record with nothing left is billed 0, with an entry.
      await f.store.recordUsage([record({ keyId: key, accountId: a, reservationId: live.id, cost: 900 })]);
      await f.store.recordUsage([record({ keyId: key, accountId: a, reservationId: fresh('gone'), cost: 50 })]);
      expect(await m.balance(a)).toEqual({ balance: 0, reserved: 0 });
      expect(await m.ledgerSum(a)).toBe(0);
      const entries = await m.ledger({ accountId: a, kind: 'usage', limit: 5 });
      expect(entries.map((e) => e.amount)).toEqual([0, -900, -100]);
      expect((await f.store.usageTotals(key)).cost).toBe(1_000);
    });

    it('settles the records of a batch that their reservations cover before those settled late', async () => {
      const a = fresh('acct');
      const key = fresh('key');
      await credit(a, 100);
      const held = reservation({ accountId: a, keyId: key, amount: 80 });
      expect(await m.reserve(held)).toBeUndefined();
      const late = record({ keyId: key, accountId: a, reservationId: fresh('expired'), cost: 50 });
      const covered = record({ keyId: key, accountId: a, reservationId: held.id, cost: 80 });
      await f.store.recordUsage([late, covered]);
      expect(await m.balance(a)).toEqual({ balance: 0, reserved: 0 });
      expect(await m.ledgerSum(a)).toBe(0);
      expect((await f.store.usageTotals(key)).cost).toBe(100);
    });

    it('releases the reservations whose lease ran out, not those renewed', async () => {
      const a = fresh('acct');
      await credit(a, 1_000);
      const owner = fresh('process');
      expect(await m.reserve(reservation({ accountId: a, amount: 300, owner: 'dead', leaseMs: 1 }))).toBeUndefined();
      expect(await m.reserve(reservation({ accountId: a, amount: 200, owner, leaseMs: 1 }))).toBeUndefined();
      await m.renewLeases(owner, 60_000);
      await new Promise((r) => setTimeout(r, 20));
      expect(await m.releaseExpired()).toBeGreaterThanOrEqual(1);
      expect(await m.balance(a)).toEqual({ balance: 1_000, reserved: 200 });
    });

    it('keeps edited prices', async () => {
      const code = fresh('gen-');
      await m.setPriceOverride({ code, price: '{"per_call":"0.01"}', updatedAt: 1, updatedBy: 'key:admin' });
      await m.setPriceOverride({ code, price: null, updatedAt: 2, updatedBy: 'key:admin' });
      expect((await m.priceOverrides()).find((o) => o.code === code)).toEqual({
        code,
        price: null,
        updatedAt: 2,
        updatedBy: 'key:admin',
      });
      expect(await m.deletePriceOverride(code)).toBe(true);
      expect(await m.deletePriceOverride(code)).toBe(false);
    });

    it('redeems a code once, before its batch expires, crediting its amount', async () => {
      const a = fresh('acct');
      const batch = fresh('batch');
      const codes = [fresh('h'), fresh('h'), fresh('h')];
      await m.createCodeBatch(
        {
          id: batch,
          amount: 5_000_000,
          count: 3,
          expiresAt: NOON + 1000,
          note: 'promo',
          createdBy: 'key:admin',
          createdAt: NOON,
        },
        codes.map((hash) => ({ hash, encrypted: `enc-${hash}` })),
      );
      const ok = await m.redeem(codes[0]!, a, `account:${a}`, NOON);
      expect(ok).toMatchObject({
        ok: true,
        entry: { amount: 5_000_000, balanceAfter: 5_000_000, kind: 'redeem', ref: batch },
      });
      expect(await m.redeem(codes[0]!, a, `account:${a}`, NOON)).toEqual({ ok: false, reason: 'redeemed' });
      expect(await m.redeem('nope', a, `account:${a}`, NOON)).toEqual({ ok: false, reason: 'unknown' });
      expect(await m.redeem(codes[1]!, a, `account:${a}`, NOON + 1000)).toEqual({ ok: false, reason: 'expired' });
      const [listed] = (await m.codeBatches()).filter((b) => b.id === batch);
      expect(listed).toMatchObject({ amount: 5_000_000, count: 3, redeemed: 1, note: 'promo' });
      const rows = await m.codes(batch);
      expect(rows.filter((c) => c.redeemedBy === a).map((c) => c.hash)).toEqual([codes[0]]);
      expect(rows.every((c) => c.encrypted === `enc-${c.hash}`)).toBe(true);
      // Two redemptions of one code at once: one wins.
      const both = await Promise.all([
        m.redeem(codes[2]!, a, 'x', NOON),
        m.redeem(codes[2]!, fresh('acct'), 'y', NOON),
      ]);
      expect(both.filter((r) => r.ok).length).toBe(1);
      expect(await m.balance(a)).toMatchObject({ balance: both[0]!.ok ? 10_000_000 : 5_000_000 });
    });
  });
}
