import { describe, expect, it } from 'vitest';
import { planSettlement } from '../../src/stores/settlement.js';
import type { UsageRecord } from '../../src/stores/types.js';
import { Calendar } from '../../src/util/calendar.js';

const DAY = 86_400_000;
const start = Date.parse('2026-03-31T23:00:00Z');

let seq = 0;
const record = (keyId: string, accountId: string, cost: number, at: number): UsageRecord => ({
  keyId,
  accountId,
  operation: 'chat.completions',
  model: 'gen-4.6',
  requestId: undefined,
  promptTokens: 1,
  completionTokens: 1,
  status: 200,
  latencyMs: 1,
  createdAt: at,
  cost,
  journalId: `j${++seq}`,
});

const state = { balanceOf: () => 1_000_000, reservedByOthers: () => 0, held: new Map(), requireBalance: true };

describe('planSettlement: spend of a batch', () => {
  it('adds each cost to its key and account, in all, on its day and in its month, however the records interleave', () => {
    const calendar = new Calendar('UTC');
    const records: UsageRecord[] = [];
    const expected = new Map<string, number>();
    const add = (scope: string, period: string, amount: number) => {
      const id = `${scope} ${period}`;
      expected.set(id, (expected.get(id) ?? 0) + amount);
    };
    // Two keys of one account, one of another, across midnight and a month's end, interleaved.
    const keys = [
      ['k1', 'a'],
      ['k2', 'a'],
      ['k3', 'b'],
    ] as const;
    for (let i = 0; i < 60; i++) {
      const [keyId, accountId] = keys[(i * 7) % 3]!;
      const at = start + (i % 5) * 20 * 60_000 + Math.floor(i / 20) * DAY;
      const cost = 1 + (i % 4);
      records.push(record(keyId, accountId, cost, at));
      const { day, month } = calendar.periodsOf(at);
      for (const scope of [`key:${keyId}`, `account:${accountId}`]) {
        add(scope, 'total', cost);
        add(scope, `d:${day}`, cost);
        add(scope, `m:${month}`, cost);
      }
    }
    const plan = planSettlement(records, state, calendar);
    const spend = new Map(plan.spend.map((s) => [`${s.scope} ${s.period}`, s.amount]));
    expect(spend).toEqual(expected);
    // One row per scope and period.
    expect(plan.spend.length).toBe(expected.size);
    expect(plan.ledger.map((e) => e.ref)).toEqual(records.map((r) => r.journalId));
    expect(plan.balances).toEqual(
      new Map([
        ['a', 1_000_000 - records.filter((r) => r.accountId === 'a').reduce((s, r) => s + r.cost!, 0)],
        ['b', 1_000_000 - records.filter((r) => r.accountId === 'b').reduce((s, r) => s + r.cost!, 0)],
      ]),
    );
  });

  it('adds nothing to spend for a record billed nothing', () => {
    const plan = planSettlement(
      [record('k1', 'a', 5, start)],
      { ...state, balanceOf: () => 0, held: new Map() },
      new Calendar('UTC'),
    );
    expect(plan.ledger).toHaveLength(1);
    expect(plan.ledger[0]!.amount).toBe(0);
    expect(plan.spend).toEqual([]);
  });
});
