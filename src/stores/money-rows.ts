import type {
  Budget,
  CodeBatch,
  LedgerEntry,
  MovementKind,
  PriceOverride,
  RedemptionCode,
  Refusal,
  SpendScope,
} from './money.js';

/** Row shapes of the money tables, shared by the SQL stores, and their mapping to records. */
type Num = number | string;
const num = (v: Num): number => Number(v);
const opt = (v: Num | null): number | undefined => (v === null ? undefined : Number(v));

export interface LedgerRow {
  id: Num;
  account_id: string;
  amount: Num;
  balance_after: Num;
  kind: string;
  actor: string;
  note: string;
  ref: string | null;
  key_id: string | null;
  created_at: Num;
}

export const ledgerFromRow = (row: LedgerRow): LedgerEntry => ({
  id: num(row.id),
  accountId: row.account_id,
  amount: num(row.amount),
  balanceAfter: num(row.balance_after),
  kind: row.kind as MovementKind,
  actor: row.actor,
  note: row.note,
  ref: row.ref ?? undefined,
  keyId: row.key_id ?? undefined,
  at: num(row.created_at),
});

export const LEDGER_INSERT_COLUMNS = 'account_id, amount, balance_after, kind, actor, note, ref, key_id, created_at';

export interface BudgetRow {
  scope: string;
  total: Num | null;
  daily: Num | null;
  monthly: Num | null;
}

export const budgetFromRow = (row: BudgetRow): Budget => ({
  total: opt(row.total),
  daily: opt(row.daily),
  monthly: opt(row.monthly),
});

export interface PriceOverrideRow {
  code: string;
  price: string | null;
  updated_at: Num;
  updated_by: string;
}

export const overrideFromRow = (row: PriceOverrideRow): PriceOverride => ({
  code: row.code,
  price: row.price,
  updatedAt: num(row.updated_at),
  updatedBy: row.updated_by,
});

export interface BatchRow {
  id: string;
  amount: Num;
  count: Num;
  expires_at: Num | null;
  note: string;
  created_by: string;
  created_at: Num;
  redeemed: Num | null;
}

export const batchFromRow = (row: BatchRow): CodeBatch => ({
  id: row.id,
  amount: num(row.amount),
  count: num(row.count),
  expiresAt: opt(row.expires_at),
  note: row.note,
  createdBy: row.created_by,
  createdAt: num(row.created_at),
  redeemed: num(row.redeemed ?? 0),
});

/** Batches with how many of their codes were redeemed, newest first. */
export const BATCHES_SELECT = `SELECT b.*, (SELECT COUNT(*) FROM redemption_codes c WHERE c.batch_id = b.id AND c.redeemed_by IS NOT NULL) AS redeemed
  FROM redemption_batches b`;

export interface CodeRow {
  code_hash: string;
  batch_id: string;
  code_encrypted: string;
  redeemed_by: string | null;
  redeemed_at: Num | null;
}

export const codeFromRow = (row: CodeRow): RedemptionCode => ({
  hash: row.code_hash,
  batchId: row.batch_id,
  encrypted: row.code_encrypted,
  redeemedBy: row.redeemed_by ?? undefined,
  redeemedAt: opt(row.redeemed_at),
});

/** The WHERE clause of a ledger query and its parameters, with the database's placeholder. */
export function ledgerWhere(
  query: {
    accountId?: string | undefined;
    kind?: string | undefined;
    since?: number | undefined;
    beforeId?: number | undefined;
  },
  placeholder: (n: number) => string,
): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (clause: (p: string) => string, value: unknown) => {
    params.push(value);
    clauses.push(clause(placeholder(params.length)));
  };
  if (query.accountId !== undefined) add((p) => `account_id = ${p}`, query.accountId);
  if (query.kind !== undefined) add((p) => `kind = ${p}`, query.kind);
  if (query.since !== undefined) add((p) => `created_at >= ${p}`, query.since);
  if (query.beforeId !== undefined) add((p) => `id < ${p}`, query.beforeId);
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * The first budget of a scope that a further `amount` would overrun, in the order total, month,
 * day; `held` is what the scope's reservations hold now. Shared by the stores that check in code.
 */
export function budgetRefusal(
  scope: SpendScope,
  budget: Budget,
  spent: { total: number; day: number; month: number },
  held: number,
  amount: number,
): Refusal | undefined {
  const checks = [
    ['total', budget.total, spent.total],
    ['monthly', budget.monthly, spent.month],
    ['daily', budget.daily, spent.day],
  ] as const;
  for (const [what, limit, used] of checks) {
    if (limit !== undefined && used + held + amount > limit) return { what, scope, limit, used: used + held };
  }
  return undefined;
}
