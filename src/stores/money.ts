/**
 * Money's part of the store seam (`store.money`): balances and their ledger, budgets and what has
 * been spent against them, reservations of calls in progress, edited prices and redemption codes.
 * Amounts are integers of the minor unit (a millionth of the currency); times are Unix ms. A call's
 * usage record settles its reservation in the same transaction that writes the record
 * (`Store.recordUsage`), so replaying a journal never bills twice. Every implementation passes
 * test/contracts/money-store.contract.ts.
 */

export type MovementKind = 'credit' | 'debit' | 'redeem' | 'usage';

/** One movement of an account's balance. The balance is the sum of its entries' amounts. */
export interface LedgerEntry {
  id: number;
  accountId: string;
  /** Signed: a credit or redemption is positive, a debit or a call's cost negative. */
  amount: number;
  balanceAfter: number;
  kind: MovementKind;
  /** Who moved it: `key:<id>` (an admin key, or the key a call was made with), `account:<id>`, `system`. */
  actor: string;
  /** Why: the admin's note, the code's batch, the call's operation and model. */
  note: string;
  /** What it refers to: a call's usage journal id, a redemption batch id. */
  ref: string | undefined;
  /** The key of a call (`usage`). */
  keyId: string | undefined;
  at: number;
}

export interface NewMovement {
  accountId: string;
  amount: number;
  kind: Exclude<MovementKind, 'usage'>;
  actor: string;
  note: string;
  ref?: string | undefined;
  at: number;
  /** A debit is refused when it would take the balance, less what is reserved, below zero. */
  covered: boolean;
}

export type MoveResult = { ok: true; entry: LedgerEntry } | { ok: false; balance: Balance };

export interface Balance {
  balance: number;
  /** Held by reservations of calls in progress. */
  reserved: number;
}

/** Limits on spend, in minor units; undefined = no limit of that kind. */
export interface Budget {
  total: number | undefined;
  daily: number | undefined;
  monthly: number | undefined;
}

/** `key:<id>` or `account:<id>`. */
export type SpendScope = `key:${string}` | `account:${string}`;

/** The calendar periods of a moment in the configured time zone: `2026-03-01` and `2026-03`. */
export interface Periods {
  day: string;
  month: string;
}

export interface Spend {
  total: number;
  day: number;
  month: number;
}

export interface ReservationRequest {
  /** Made by the caller; a second request with the same id adds to that reservation. */
  id: string;
  accountId: string;
  keyId: string;
  amount: number;
  /** The process (or task) that holds it and renews its lease. */
  owner: string;
  leaseMs: number;
  /** The periods of now, against which per-day and per-month budgets are checked. */
  periods: Periods;
  /** Whether the account's balance must cover it (billing.require_balance). */
  requireBalance: boolean;
}

/** What refused a reservation: the balance, or a budget of the account or the key. */
export interface Refusal {
  what: 'balance' | 'total' | 'daily' | 'monthly';
  scope: SpendScope;
  /** The balance, or the budget. */
  limit: number;
  /** Spent in the period plus reserved (a budget), or reserved (the balance). */
  used: number;
}

/** An edited price: the price's JSON as the API writes it, or null for "no price" over a configured one. */
export interface PriceOverride {
  code: string;
  price: string | null;
  updatedAt: number;
  updatedBy: string;
}

export interface CodeBatch {
  id: string;
  amount: number;
  count: number;
  expiresAt: number | undefined;
  note: string;
  createdBy: string;
  createdAt: number;
  /** Codes of the batch redeemed so far. */
  redeemed: number;
}

export interface RedemptionCode {
  /** SHA-256 of the code, hex. */
  hash: string;
  batchId: string;
  /** The code, encrypted with the server key (the admin may list a batch again). */
  encrypted: string;
  redeemedBy: string | undefined;
  redeemedAt: number | undefined;
}

export type RedeemResult =
  | { ok: true; entry: LedgerEntry; batch: CodeBatch }
  | { ok: false; reason: 'unknown' | 'redeemed' | 'expired' };

export interface LedgerQuery {
  accountId?: string | undefined;
  kind?: MovementKind | undefined;
  since?: number | undefined;
  /** Entries with a smaller id (the next page). */
  beforeId?: number | undefined;
  limit: number;
}

export interface MoneyStore {
  balance(accountId: string): Promise<Balance>;
  /** A credit or debit: the balance and its ledger entry, atomically. */
  move(movement: NewMovement): Promise<MoveResult>;
  ledger(query: LedgerQuery): Promise<LedgerEntry[]>;
  /** The sum of an account's ledger (reconciliation: equal to its balance). */
  ledgerSum(accountId: string): Promise<number>;

  budgets(): Promise<Map<SpendScope, Budget>>;
  /** Sets or (undefined) removes a scope's budget. */
  setBudget(scope: SpendScope, budget: Budget | undefined, at: number): Promise<void>;

  /**
   * Holds `amount` more for a call, if the balance (when required) and every budget of the account
   * and of the key still cover it with what is spent and held already: atomically, across processes.
   * Undefined when held; else what refused it.
   */
  reserve(request: ReservationRequest): Promise<Refusal | undefined>;
  /**
   * `reserve` answered at once, by a store that holds reservations in this process (SQLite): a
   * priced call then waits for nothing before its engine starts. Absent where a reservation is a
   * round trip (PostgreSQL).
   */
  reserveNow?(request: ReservationRequest): Refusal | undefined;
  /** Gives back `amount` of a reservation (all of it when undefined), e.g. a call that failed before any cost. */
  release(id: string, amount?: number): Promise<void>;
  /** Extends the lease of every reservation this owner holds. */
  renewLeases(owner: string, leaseMs: number): Promise<void>;
  /** Releases the reservations whose lease ran out (their process died); returns how many. */
  releaseExpired(): Promise<number>;
  /** Held by reservations of a key now (its budget counts them). */
  reservedForKey(keyId: string): Promise<number>;

  priceOverrides(): Promise<PriceOverride[]>;
  setPriceOverride(override: PriceOverride): Promise<void>;
  /** Drops an edit: the configured price (or none) is in force again. False when there was none. */
  deletePriceOverride(code: string): Promise<boolean>;

  createCodeBatch(batch: Omit<CodeBatch, 'redeemed'>, codes: { hash: string; encrypted: string }[]): Promise<void>;
  codeBatches(): Promise<CodeBatch[]>;
  codes(batchId: string): Promise<RedemptionCode[]>;
  /** Marks the code redeemed by the account and credits the batch's amount, atomically, once. */
  redeem(hash: string, accountId: string, actor: string, at: number): Promise<RedeemResult>;

  /** What each scope has spent in all, on the day and in the month. */
  spendOf(scopes: SpendScope[], periods: Periods): Promise<Map<SpendScope, Spend>>;
}

/** The account that holds a key without an owner: the admin's. */
export const ADMIN_ACCOUNT = 'admin';

export const keyScope = (id: string): SpendScope => `key:${id}`;
export const accountScope = (id: string): SpendScope => `account:${id}`;
