import type { Static } from '@sinclair/typebox';
import type {
  BalanceReply,
  BudgetBody,
  BudgetReply,
  CodeBatchView,
  KeyUsageReply,
  LedgerEntryReply,
} from '../api/billing.js';
import { invalidField } from '../errors/errors.js';
import { amountProblem, formatAmount, parseAmount } from '../services/billing/amount.js';
import type { BillingService } from '../services/billing/billing-service.js';
import type { Balance, Budget, CodeBatch, LedgerEntry, SpendScope } from '../stores/money.js';
import type { UsageTotals } from '../stores/types.js';

/** Money as the admin API and the console show it: decimal strings, Unix seconds, snake_case. */
const seconds = (ms: number) => Math.floor(ms / 1000);
const orNull = (minor: number | undefined) => (minor === undefined ? null : formatAmount(minor));

export const balanceView = (accountId: string, b: Balance, currency: string): Static<typeof BalanceReply> => ({
  account_id: accountId,
  balance: formatAmount(b.balance),
  reserved: formatAmount(b.reserved),
  available: formatAmount(b.balance - b.reserved),
  currency,
});

export const ledgerView = (e: LedgerEntry, currency: string): Static<typeof LedgerEntryReply> => ({
  id: e.id,
  account_id: e.accountId,
  kind: e.kind,
  amount: formatAmount(e.amount),
  balance_after: formatAmount(e.balanceAfter),
  currency,
  actor: e.actor,
  note: e.note,
  ref: e.ref ?? null,
  key_id: e.keyId ?? null,
  created_at: seconds(e.at),
});

export const batchView = (b: CodeBatch, currency: string): Static<typeof CodeBatchView> => ({
  id: b.id,
  amount: formatAmount(b.amount),
  currency,
  count: b.count,
  redeemed: b.redeemed,
  expires_at: b.expiresAt === undefined ? null : seconds(b.expiresAt),
  note: b.note,
  created_by: b.createdBy,
  created_at: seconds(b.createdAt),
});

/** A signed decimal string as minor units, or 1214 naming the field. */
export function amountOf(field: string, text: string, options: { negative?: boolean } = {}): number {
  const problem = amountProblem(text, options);
  if (problem) throw invalidField(field, problem);
  return parseAmount(text, options);
}

/** The limits of a budget body; a field left out or null is no limit. */
export function budgetOf(body: Static<typeof BudgetBody>): Budget {
  const limit = (field: 'total' | 'daily' | 'monthly') => {
    const value = body[field];
    return value === undefined || value === null ? undefined : amountOf(field, value);
  };
  return { total: limit('total'), daily: limit('daily'), monthly: limit('monthly') };
}

/** A scope's budget with what it has spent (now, in the configured calendar) and holds. */
export async function budgetView(
  billing: BillingService,
  scope: SpendScope,
  budget: Budget | undefined,
): Promise<Static<typeof BudgetReply>> {
  const money = billing.options.store.money;
  const id = scope.slice(scope.indexOf(':') + 1);
  const [spend, reserved] = await Promise.all([
    money.spendOf([scope], billing.calendar.periodsOf(Date.now())),
    scope.startsWith('key:') ? money.reservedForKey(id) : money.balance(id).then((b) => b.reserved),
  ]);
  const spent = spend.get(scope) ?? { total: 0, day: 0, month: 0 };
  return {
    scope,
    budget: { total: orNull(budget?.total), daily: orNull(budget?.daily), monthly: orNull(budget?.monthly) },
    spent: { total: formatAmount(spent.total), day: formatAmount(spent.day), month: formatAmount(spent.month) },
    reserved: formatAmount(reserved),
    currency: billing.currency,
    time_zone: billing.options.config.time_zone,
  };
}

/** `GET /admin/keys/{id}/usage`: the totals with their cost. */
export function keyUsageView(
  id: string,
  since: number,
  totals: UsageTotals,
  currency: string,
  budget: Static<typeof BudgetReply> | null,
): Static<typeof KeyUsageReply> {
  const byOperation: Static<typeof KeyUsageReply>['byOperation'] = {};
  for (const [op, t] of Object.entries(totals.byOperation)) byOperation[op] = { ...t, cost: formatAmount(t.cost) };
  return {
    id,
    since,
    requests: totals.requests,
    errors: totals.errors,
    promptTokens: totals.promptTokens,
    completionTokens: totals.completionTokens,
    totalTokens: totals.totalTokens,
    cost: formatAmount(totals.cost),
    currency,
    byOperation,
    budget,
  };
}
