import type { Calendar } from '../util/calendar.js';
import { ADMIN_ACCOUNT, accountScope, keyScope, type SpendScope } from './money.js';
import type { UsageRecord } from './types.js';

/** A usage record that moves money when it is written: it had a reservation, or it cost something. */
export const movesMoney = (r: UsageRecord): boolean => r.reservationId !== undefined || (r.cost ?? 0) > 0;

/** The ledger row of a call's cost. */
export interface UsageLedgerRow {
  accountId: string;
  amount: number;
  balanceAfter: number;
  actor: string;
  note: string;
  ref: string | null;
  keyId: string;
  at: number;
}

/** What writing a batch of new usage records does to money, computed from the balances before it. */
export interface SettlementPlan {
  /** Per account: the new balance. */
  balances: Map<string, number>;
  ledger: UsageLedgerRow[];
  /** Added spend per scope and period (`total`, `d:<day>`, `m:<month>`). */
  spend: { scope: SpendScope; period: string; amount: number }[];
}

export const accountOf = (r: UsageRecord): string => r.accountId ?? ADMIN_ACCOUNT;

/**
 * Plans the settlement of records newly written (a record already stored was settled when it
 * was): each cost is debited from its account in the order of the records, with the balance after
 * it on its ledger entry, and added to the spend of its key and account in the periods of the
 * moment the record was made. `balanceOf` gives an account's balance before the batch.
 */
export function planSettlement(
  records: readonly UsageRecord[],
  balanceOf: (accountId: string) => number,
  calendar: Calendar,
): SettlementPlan {
  const balances = new Map<string, number>();
  const ledger: UsageLedgerRow[] = [];
  const spend = new Map<string, { scope: SpendScope; period: string; amount: number }>();
  const addSpend = (scope: SpendScope, period: string, amount: number) => {
    const id = `${scope}\n${period}`;
    const entry = spend.get(id);
    if (entry) entry.amount += amount;
    else spend.set(id, { scope, period, amount });
  };
  for (const r of records) {
    const cost = r.cost ?? 0;
    if (cost <= 0) continue;
    const account = accountOf(r);
    const after = (balances.get(account) ?? balanceOf(account)) - cost;
    balances.set(account, after);
    ledger.push({
      accountId: account,
      amount: -cost,
      balanceAfter: after,
      actor: `key:${r.keyId}`,
      note: r.model ? `${r.operation} ${r.model}` : r.operation,
      ref: r.journalId ?? null,
      keyId: r.keyId,
      at: r.createdAt,
    });
    const { day, month } = calendar.periodsOf(r.createdAt);
    for (const scope of [keyScope(r.keyId), accountScope(account)]) {
      addSpend(scope, 'total', cost);
      addSpend(scope, `d:${day}`, cost);
      addSpend(scope, `m:${month}`, cost);
    }
  }
  return { balances, ledger, spend: [...spend.values()] };
}
