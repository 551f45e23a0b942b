import type { Calendar } from '../util/calendar.js';
import { ADMIN_ACCOUNT, accountScope, keyScope, type SpendScope } from './money.js';
import type { UsageRecord } from './types.js';

/** A usage record that moves money when it is written: it had a reservation, or it cost something. */
export const movesMoney = (r: UsageRecord): boolean => r.reservationId !== undefined || (r.cost ?? 0) > 0;

/** The ledger row of a call's cost. */
export interface UsageLedgerRow {
  /** The call's usage record. */
  record: UsageRecord;
  /** Its position among the records planned (a store finds the row it wrote for it by this). */
  index: number;
  accountId: string;
  amount: number;
  balanceAfter: number;
  actor: string;
  /** `<operation> <model>` (`usageNote`), with what was billed when the record was settled late. */
  note: string;
  /** Whether it was settled late and billed less than its cost (its note says so). */
  late: boolean;
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
  /** Records billed less than their cost (settled late, the balance spent meanwhile): what they were billed. */
  cut: { record: UsageRecord; billed: number }[];
}

/** The accounts of a batch as they stand before it, locked by the caller. */
export interface SettlementState {
  /** The account's balance. */
  balanceOf(accountId: string): number;
  /** What the account holds for calls other than this batch's (their reservations are released with it). */
  reservedByOthers(accountId: string): number;
  /** Amounts still held by the reservations of this batch's records, by reservation id. */
  held: ReadonlyMap<string, number>;
  /** billing.require_balance: a balance may not go below what other calls hold. */
  requireBalance: boolean;
}

export const accountOf = (r: UsageRecord): string => r.accountId ?? ADMIN_ACCOUNT;

/** Why a call's ledger entry moved money: its operation and model (the SQLite store says the same in SQL). */
export const usageNote = (r: Pick<UsageRecord, 'operation' | 'model'>): string =>
  r.model ? `${r.operation} ${r.model}` : r.operation;

/**
 * Plans the settlement of records newly written (a record already stored was settled when it
 * was): each cost is debited from its account in the order of the records, with the balance after
 * it on its ledger entry, and added to the spend of its key and account in the periods of the
 * moment the record was made.
 *
 * A record debits what its reservation still holds for it. One settled late — its process died
 * and the reservation's lease ran out before the journal was replayed, so the amount it held may
 * be reserved by other calls since — is debited only as far as the balance, less what other calls
 * hold, covers it when balances are prepaid (`requireBalance`): a prepaid balance never goes below
 * zero nor below what admitted calls were promised. Its record's cost is then what was billed
 * (`cut`: the store rewrites it, by journal id), and its ledger entry, written even for 0, says
 * what it cost and what was billed.
 */
export function planSettlement(
  records: readonly UsageRecord[],
  state: SettlementState,
  calendar: Calendar,
): SettlementPlan {
  const balances = new Map<string, number>();
  const ledger: UsageLedgerRow[] = [];
  const cut: SettlementPlan['cut'] = [];
  const held = new Map(state.held);
  // Records whose reservation covers them first: the amounts they hold are then free for the others.
  // Positions rather than records: the order is made without a second list of objects.
  const order: number[] = [];
  const others: number[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const covers = r.reservationId !== undefined && (state.held.get(r.reservationId) ?? 0) >= (r.cost ?? 0);
    (covers ? order : others).push(i);
  }
  for (const i of others) order.push(i);
  // What was billed by key, account and day; a batch's records are mostly one key's on one day, so
  // a record usually adds to the group of the one before it.
  const groups = new Map<string, SpendGroup>();
  let last: SpendGroup | undefined;
  for (const index of order) {
    const r = records[index]!;
    const cost = r.cost ?? 0;
    if (cost <= 0) continue;
    const account = accountOf(r);
    const before = balances.get(account) ?? state.balanceOf(account);
    const reserved = r.reservationId === undefined ? 0 : (held.get(r.reservationId) ?? 0);
    if (r.reservationId !== undefined) held.delete(r.reservationId);
    let billed = cost;
    if (reserved < cost && state.requireBalance) {
      const free = Math.max(0, before - reserved - state.reservedByOthers(account));
      billed = Math.min(cost, reserved + free);
    }
    const after = before - billed;
    balances.set(account, after);
    let note = usageNote(r);
    if (billed < cost) {
      cut.push({ record: r, billed });
      note += ` (settled late: billed ${billed} of its cost ${cost} millionths; the balance held no more)`;
    }
    ledger.push({
      record: r,
      index,
      accountId: account,
      amount: 0 - billed,
      balanceAfter: after,
      actor: `key:${r.keyId}`,
      note,
      late: billed < cost,
      ref: r.journalId ?? null,
      keyId: r.keyId,
      at: r.createdAt,
    });
    if (billed === 0) continue;
    const periods = calendar.periodsOf(r.createdAt);
    if (last === undefined || last.keyId !== r.keyId || last.account !== account || last.periods.day !== periods.day) {
      const id = `${r.keyId}\n${account}\n${periods.day}`;
      last = groups.get(id);
      if (last === undefined) {
        last = { keyId: r.keyId, account, periods, amount: 0 };
        groups.set(id, last);
      }
    }
    last.amount += billed;
  }
  return { balances, ledger, spend: spendRows(groups.values()), cut };
}

interface SpendGroup {
  keyId: string;
  account: string;
  periods: { day: string; month: string };
  amount: number;
}

/** A group's spend added to its key and account, in all, on its day and in its month: one row per scope and period. */
function spendRows(groups: Iterable<SpendGroup>): SettlementPlan['spend'] {
  const spend = new Map<string, { scope: SpendScope; period: string; amount: number }>();
  for (const g of groups) {
    for (const scope of [keyScope(g.keyId), accountScope(g.account)]) {
      for (const period of ['total', `d:${g.periods.day}`, `m:${g.periods.month}`]) {
        const id = `${scope}\n${period}`;
        const entry = spend.get(id);
        if (entry) entry.amount += g.amount;
        else spend.set(id, { scope, period, amount: g.amount });
      }
    }
  }
  return [...spend.values()];
}
