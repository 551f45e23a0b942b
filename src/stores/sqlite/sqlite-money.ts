import type Database from 'better-sqlite3';
import type { Calendar } from '../../util/calendar.js';
import {
  accountScope,
  type Balance,
  type Budget,
  type CodeBatch,
  keyScope,
  type LedgerEntry,
  type LedgerQuery,
  type MoneyStore,
  type MoveResult,
  type NewMovement,
  type Periods,
  type PriceOverride,
  type RedeemResult,
  type RedemptionCode,
  type Refusal,
  type ReservationRequest,
  type Spend,
  type SpendScope,
} from '../money.js';
import {
  BATCHES_SELECT,
  type BatchRow,
  type BudgetRow,
  batchFromRow,
  budgetFromRow,
  budgetRefusal,
  type CodeRow,
  codeFromRow,
  LEDGER_INSERT_COLUMNS,
  type LedgerRow,
  ledgerFromRow,
  ledgerWhere,
  overrideFromRow,
  type PriceOverrideRow,
} from '../money-rows.js';
import { movesMoney, planSettlement } from '../settlement.js';
import type { UsageRecord } from '../types.js';
import { HeldReservations } from './held-reservations.js';
import { KnownBalances } from './known-balances.js';
import { MultiRowInserter } from './multi-row-insert.js';
import { OtherCommits } from './other-commits.js';
import { LEDGER_FROM_USAGE, SPEND_ADD } from './settlement-inserts.js';

/** Scopes whose budget (or its absence) is kept in memory. */
const BUDGET_CACHE = 100_000;
/**
 * Money on SQLite. SQLite serves one server process (docs/deployment.md), so reservations of calls
 * in progress are held in that process: checks against them are exact, and a process that dies
 * takes its reservations with it (the usage journal, replayed at the next start, bills what its
 * calls cost). Balances, ledger, spend and budgets are in the database, written in transactions.
 */
export class SqliteMoney implements MoneyStore {
  private readonly held = new HeldReservations();
  /** Budgets of accounts and of keys by id; null: none. */
  private readonly accountBudgets = new Map<string, Budget | null>();
  private readonly keyBudgets = new Map<string, Budget | null>();
  /** Balances as reservations check them; settlements and movements read the row itself. */
  private readonly balances: KnownBalances;
  /** A settlement's ledger entries and spend rows, a statement or two each. */
  private readonly rows: MultiRowInserter;
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly calendar: Calendar,
    /** billing.require_balance: a late settlement is billed only as far as the balance covers it. */
    private readonly requireBalance = true,
    otherCommits = new OtherCommits(db),
    private readonly now: () => number = Date.now,
  ) {
    this.rows = new MultiRowInserter(db);
    this.balances = new KnownBalances(otherCommits, (accountId) => this.balanceOf(accountId));
    this.stmts = {
      balance: db.prepare('SELECT balance FROM money_balances WHERE account_id = ?').pluck(),
      setBalance: db.prepare(
        `INSERT INTO money_balances (account_id, balance, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (account_id) DO UPDATE SET balance = excluded.balance, updated_at = excluded.updated_at`,
      ),
      ledgerInsert: db.prepare(
        `INSERT INTO money_ledger (${LEDGER_INSERT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      ),
      ledgerSum: db.prepare('SELECT COALESCE(SUM(amount), 0) FROM money_ledger WHERE account_id = ?').pluck(),
      budgets: db.prepare('SELECT scope, total, daily, monthly FROM money_budgets'),
      budgetOf: db.prepare('SELECT scope, total, daily, monthly FROM money_budgets WHERE scope = ?'),
      setBudget: db.prepare(
        `INSERT INTO money_budgets (scope, total, daily, monthly, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (scope) DO UPDATE SET total = excluded.total, daily = excluded.daily,
           monthly = excluded.monthly, updated_at = excluded.updated_at`,
      ),
      deleteBudget: db.prepare('DELETE FROM money_budgets WHERE scope = ?'),
      spent: db.prepare('SELECT spent FROM money_spend WHERE scope = ? AND period = ?').pluck(),
      overrides: db.prepare('SELECT * FROM price_overrides ORDER BY code'),
      setOverride: db.prepare(
        `INSERT INTO price_overrides (code, price, updated_at, updated_by) VALUES (?, ?, ?, ?)
         ON CONFLICT (code) DO UPDATE SET price = excluded.price, updated_at = excluded.updated_at,
           updated_by = excluded.updated_by`,
      ),
      deleteOverride: db.prepare('DELETE FROM price_overrides WHERE code = ?'),
      setCost: db.prepare('UPDATE usage_records SET cost = ? WHERE journal_id = ?'),
      insertBatch: db.prepare(
        `INSERT INTO redemption_batches (id, amount, count, expires_at, note, created_by, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertCode: db.prepare('INSERT INTO redemption_codes (code_hash, batch_id, code_encrypted) VALUES (?, ?, ?)'),
      batches: db.prepare(`${BATCHES_SELECT} ORDER BY b.created_at DESC, b.id`),
      batch: db.prepare(`${BATCHES_SELECT} WHERE b.id = ?`),
      codes: db.prepare('SELECT * FROM redemption_codes WHERE batch_id = ? ORDER BY code_hash'),
      code: db.prepare('SELECT * FROM redemption_codes WHERE code_hash = ?'),
      markRedeemed: db.prepare(
        'UPDATE redemption_codes SET redeemed_by = ?, redeemed_at = ? WHERE code_hash = ? AND redeemed_by IS NULL',
      ),
    };
  }

  async balance(accountId: string): Promise<Balance> {
    return { balance: this.balanceOf(accountId), reserved: this.held.ofAccount(accountId) };
  }

  private balanceOf(accountId: string): number {
    return (this.stmts.balance.get(accountId) as number | undefined) ?? 0;
  }

  async move(m: NewMovement): Promise<MoveResult> {
    const result = this.db
      .transaction((): MoveResult => {
        const balance = this.balanceOf(m.accountId);
        const reserved = this.held.ofAccount(m.accountId);
        if (m.covered && m.amount < 0 && balance - reserved + m.amount < 0) {
          return { ok: false, balance: { balance, reserved } };
        }
        return { ok: true, entry: this.writeMovement(m, balance) };
      })
      .immediate();
    if (result.ok) this.balances.remember(m.accountId, result.entry.balanceAfter);
    return result;
  }

  /** Inside a transaction: the new balance and its ledger entry. */
  private writeMovement(m: Omit<NewMovement, 'covered'>, before: number): LedgerEntry {
    const after = before + m.amount;
    this.stmts.setBalance.run(m.accountId, after, m.at);
    const row = this.stmts.ledgerInsert.get(
      m.accountId,
      m.amount,
      after,
      m.kind,
      m.actor,
      m.note,
      m.ref ?? null,
      null,
      m.at,
    ) as LedgerRow;
    return ledgerFromRow(row);
  }

  async ledger(query: LedgerQuery): Promise<LedgerEntry[]> {
    const where = ledgerWhere(query, () => '?');
    const rows = this.db
      .prepare(`SELECT * FROM money_ledger ${where.sql} ORDER BY id DESC LIMIT ?`)
      .all(...where.params, query.limit) as LedgerRow[];
    return rows.map(ledgerFromRow);
  }

  async ledgerSum(accountId: string): Promise<number> {
    return this.stmts.ledgerSum.get(accountId) as number;
  }

  async budgets(): Promise<Map<SpendScope, Budget>> {
    const rows = this.stmts.budgets.all() as BudgetRow[];
    return new Map(rows.map((r) => [r.scope as SpendScope, budgetFromRow(r)]));
  }

  /**
   * An account's or key's budget, kept in memory by its id (a reservation then makes no scope
   * string): budgets change only through this store, and SQLite serves one server process, so a
   * reservation checks them without a query.
   */
  private budgetOf(
    known: Map<string, Budget | null>,
    id: string,
    scopeOf: (id: string) => SpendScope,
  ): Budget | undefined {
    const cached = known.get(id);
    if (cached !== undefined) return cached ?? undefined;
    const row = this.stmts.budgetOf.get(scopeOf(id)) as BudgetRow | undefined;
    const budget = row === undefined ? undefined : budgetFromRow(row);
    if (known.size >= BUDGET_CACHE) known.clear();
    known.set(id, budget ?? null);
    return budget;
  }

  async setBudget(scope: SpendScope, budget: Budget | undefined, at: number): Promise<void> {
    this.accountBudgets.clear();
    this.keyBudgets.clear();
    if (budget === undefined || Object.values(budget).every((v) => v === undefined)) {
      this.stmts.deleteBudget.run(scope);
      return;
    }
    this.stmts.setBudget.run(scope, budget.total ?? null, budget.daily ?? null, budget.monthly ?? null, at);
  }

  async spendOf(scopes: SpendScope[], periods: Periods): Promise<Map<SpendScope, Spend>> {
    return new Map(scopes.map((scope) => [scope, this.spendNow(scope, periods)]));
  }

  private spendNow(scope: SpendScope, periods: Periods): Spend {
    const spent = (period: string) => (this.stmts.spent.get(scope, period) as number | undefined) ?? 0;
    return { total: spent('total'), day: spent(`d:${periods.day}`), month: spent(`m:${periods.month}`) };
  }

  async reserve(r: ReservationRequest): Promise<Refusal | undefined> {
    return this.reserveNow(r);
  }

  reserveNow(r: ReservationRequest): Refusal | undefined {
    const account = this.held.byAccount.get(r.accountId);
    const key = this.held.byKey.get(r.keyId);
    const held = account?.amount ?? 0;
    if (r.requireBalance) {
      const balance = this.balances.get(r.accountId);
      if (balance - held < r.amount) {
        return { what: 'balance', scope: accountScope(r.accountId), limit: balance, used: held };
      }
    }
    const accountBudget = this.budgetOf(this.accountBudgets, r.accountId, accountScope);
    if (accountBudget !== undefined) {
      const scope = accountScope(r.accountId);
      const refusal = budgetRefusal(scope, accountBudget, this.spendNow(scope, r.periods), held, r.amount);
      if (refusal) return refusal;
    }
    const keyBudget = this.budgetOf(this.keyBudgets, r.keyId, keyScope);
    if (keyBudget !== undefined) {
      const scope = keyScope(r.keyId);
      const keyHeld = key?.amount ?? 0;
      const refusal = budgetRefusal(scope, keyBudget, this.spendNow(scope, r.periods), keyHeld, r.amount);
      if (refusal) return refusal;
    }
    this.held.add(r, this.now() + r.leaseMs, account, key);
    return undefined;
  }

  async release(id: string, amount?: number): Promise<void> {
    this.held.release(id, amount);
  }

  async renewLeases(owner: string, leaseMs: number): Promise<void> {
    const until = this.now() + leaseMs;
    for (const hold of this.held.holds.values()) if (hold.owner === owner) hold.leaseUntil = until;
  }

  async releaseExpired(): Promise<number> {
    const now = this.now();
    let released = 0;
    for (const [id, hold] of this.held.holds) {
      if (hold.leaseUntil >= now) continue;
      this.held.release(id);
      released++;
    }
    return released;
  }

  async reservedForKey(keyId: string): Promise<number> {
    return this.held.ofKey(keyId);
  }

  /**
   * Inside the usage transaction: settles the records it wrote (new ones only; `rowids`: their
   * usage rows, in the same order). Returns what to do once it has committed: release their
   * reservations, which live in this process.
   */
  settle(written: readonly UsageRecord[], rowids: readonly number[]): () => void {
    // The records that move money, and their rows, in one pass.
    const moving: UsageRecord[] = [];
    const movingRowids: number[] = [];
    for (let i = 0; i < written.length; i++) {
      const r = written[i]!;
      if (!movesMoney(r)) continue;
      moving.push(r);
      movingRowids.push(rowids[i]!);
    }
    if (moving.length === 0) return () => {};
    const held = new Map<string, number>();
    const releasing = new Map<string, number>();
    for (const r of moving) {
      const hold = r.reservationId === undefined ? undefined : this.held.holds.get(r.reservationId);
      if (hold === undefined || held.has(r.reservationId!)) continue;
      held.set(r.reservationId!, hold.amount);
      releasing.set(hold.accountId, (releasing.get(hold.accountId) ?? 0) + hold.amount);
    }
    const plan = planSettlement(
      moving,
      {
        balanceOf: (account) => this.balanceOf(account),
        reservedByOthers: (account) => this.held.ofAccount(account) - (releasing.get(account) ?? 0),
        held,
        requireBalance: this.requireBalance,
      },
      this.calendar,
    );
    for (const { record, billed } of plan.cut) {
      if (record.journalId !== undefined) this.stmts.setCost.run(billed, record.journalId);
    }
    for (const [account, balance] of plan.balances) this.stmts.setBalance.run(account, balance, this.now());
    const ledger: unknown[] = [];
    for (const r of plan.ledger) {
      ledger.push(r.accountId, r.amount, r.balanceAfter, movingRowids[r.index], r.late ? r.note : null);
    }
    this.rows.insert(LEDGER_FROM_USAGE, ledger);
    const spend: unknown[] = [];
    for (const r of plan.spend) spend.push(r.scope, r.period, r.amount);
    this.rows.insert(SPEND_ADD, spend);
    return () => {
      for (const [account, balance] of plan.balances) this.balances.remember(account, balance);
      for (const r of moving) if (r.reservationId !== undefined) this.held.release(r.reservationId);
    };
  }

  async priceOverrides(): Promise<PriceOverride[]> {
    return (this.stmts.overrides.all() as PriceOverrideRow[]).map(overrideFromRow);
  }

  async setPriceOverride(o: PriceOverride): Promise<void> {
    this.stmts.setOverride.run(o.code, o.price, o.updatedAt, o.updatedBy);
  }

  async deletePriceOverride(code: string): Promise<boolean> {
    return this.stmts.deleteOverride.run(code).changes > 0;
  }

  async createCodeBatch(batch: Omit<CodeBatch, 'redeemed'>, codes: { hash: string; encrypted: string }[]) {
    this.db.transaction(() => {
      const b = batch;
      this.stmts.insertBatch.run(b.id, b.amount, b.count, b.expiresAt ?? null, b.note, b.createdBy, b.createdAt);
      for (const c of codes) this.stmts.insertCode.run(c.hash, b.id, c.encrypted);
    })();
  }

  async codeBatches(): Promise<CodeBatch[]> {
    return (this.stmts.batches.all() as BatchRow[]).map(batchFromRow);
  }

  async codes(batchId: string): Promise<RedemptionCode[]> {
    return (this.stmts.codes.all(batchId) as CodeRow[]).map(codeFromRow);
  }

  async redeem(hash: string, accountId: string, actor: string, at: number): Promise<RedeemResult> {
    const result = this.db
      .transaction((): RedeemResult => {
        const code = this.stmts.code.get(hash) as CodeRow | undefined;
        if (!code) return { ok: false, reason: 'unknown' };
        if (code.redeemed_by !== null) return { ok: false, reason: 'redeemed' };
        const batch = batchFromRow(this.stmts.batch.get(code.batch_id) as BatchRow);
        if (batch.expiresAt !== undefined && batch.expiresAt <= at) return { ok: false, reason: 'expired' };
        this.stmts.markRedeemed.run(accountId, at, hash);
        const movement = { accountId, amount: batch.amount, kind: 'redeem' as const, actor, ref: batch.id, at };
        const note = batch.note ? `redemption code: ${batch.note}` : 'redemption code';
        const entry = this.writeMovement({ ...movement, note }, this.balanceOf(accountId));
        return { ok: true, entry, batch: { ...batch, redeemed: batch.redeemed + 1 } };
      })
      .immediate();
    if (result.ok) this.balances.remember(accountId, result.entry.balanceAfter);
    return result;
  }
}
