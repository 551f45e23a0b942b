import type { Calendar } from '../../util/calendar.js';
import type {
  Balance,
  Budget,
  CodeBatch,
  LedgerEntry,
  LedgerQuery,
  MoneyStore,
  MoveResult,
  NewMovement,
  Periods,
  PriceOverride,
  RedeemResult,
  RedemptionCode,
  Refusal,
  ReservationRequest,
  Spend,
  SpendScope,
} from '../money.js';
import {
  BATCHES_SELECT,
  type BatchRow,
  type BudgetRow,
  batchFromRow,
  budgetFromRow,
  type CodeRow,
  codeFromRow,
  LEDGER_INSERT_COLUMNS,
  type LedgerRow,
  ledgerFromRow,
  ledgerWhere,
  overrideFromRow,
  type PriceOverrideRow,
} from '../money-rows.js';
import { accountOf, movesMoney, planSettlement } from '../settlement.js';
import type { UsageRecord } from '../types.js';
import { lockBalance, type Queryable, writeMovement } from './balance-rows.js';
import type { PgDb } from './pg-db.js';
import { inTransaction } from './pg-transaction.js';

/**
 * Money on PostgreSQL, shared by every process. A reservation is a leased row, held by one call of
 * `money_reserve` (migration 8) that locks the account's balance row first: every check of an
 * account and its keys sees the reservations and spend committed before it. Its process renews the
 * lease; a process that dies stops, and any process releases expired reservations. Settlement
 * happens in the transaction that writes the usage records (`settleIn`), taking the balance rows'
 * locks in account order, as the reservation and the sweep do, so that they never deadlock.
 */
export class PostgresMoney implements MoneyStore {
  constructor(
    private readonly db: PgDb,
    private readonly calendar: Calendar,
    /** billing.require_balance: a late settlement is billed only as far as the balance covers it. */
    private readonly requireBalance = true,
  ) {}

  async balance(accountId: string): Promise<Balance> {
    const { rows } = await this.db.query<{ balance: number; reserved: number }>(
      'SELECT balance, reserved FROM money_balances WHERE account_id = $1',
      [accountId],
    );
    return rows[0] ?? { balance: 0, reserved: 0 };
  }

  move(m: NewMovement): Promise<MoveResult> {
    return inTransaction(
      this.db,
      async (client): Promise<MoveResult> => {
        const { balance, reserved } = await lockBalance(client, m.accountId, m.at);
        if (m.covered && m.amount < 0 && balance - reserved + m.amount < 0) {
          return { ok: false, balance: { balance, reserved } };
        }
        return { ok: true, entry: await writeMovement(client, m, balance) };
      },
      { idempotent: false },
    );
  }

  async ledger(query: LedgerQuery): Promise<LedgerEntry[]> {
    const where = ledgerWhere(query, (n) => `$${n}`);
    const { rows } = await this.db.query<LedgerRow>(
      `SELECT * FROM money_ledger ${where.sql} ORDER BY id DESC LIMIT $${where.params.length + 1}`,
      [...where.params, query.limit],
    );
    return rows.map(ledgerFromRow);
  }

  async ledgerSum(accountId: string): Promise<number> {
    const { rows } = await this.db.query<{ sum: string }>(
      'SELECT COALESCE(SUM(amount), 0) AS sum FROM money_ledger WHERE account_id = $1',
      [accountId],
    );
    return Number(rows[0]?.sum ?? 0);
  }

  async budgets(): Promise<Map<SpendScope, Budget>> {
    const { rows } = await this.db.query<BudgetRow>('SELECT scope, total, daily, monthly FROM money_budgets');
    return new Map(rows.map((r) => [r.scope as SpendScope, budgetFromRow(r)]));
  }

  async setBudget(scope: SpendScope, budget: Budget | undefined, at: number): Promise<void> {
    if (budget === undefined || Object.values(budget).every((v) => v === undefined)) {
      await this.db.query('DELETE FROM money_budgets WHERE scope = $1', [scope], { idempotent: true });
      return;
    }
    await this.db.query(
      `INSERT INTO money_budgets (scope, total, daily, monthly, updated_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (scope) DO UPDATE SET total = EXCLUDED.total, daily = EXCLUDED.daily,
         monthly = EXCLUDED.monthly, updated_at = EXCLUDED.updated_at`,
      [scope, budget.total ?? null, budget.daily ?? null, budget.monthly ?? null, at],
      { idempotent: true },
    );
  }

  async spendOf(scopes: SpendScope[], periods: Periods): Promise<Map<SpendScope, Spend>> {
    const out = new Map<SpendScope, Spend>(scopes.map((s) => [s, { total: 0, day: 0, month: 0 }]));
    if (scopes.length === 0) return out;
    const day = `d:${periods.day}`;
    const month = `m:${periods.month}`;
    const { rows } = await this.db.query<{ scope: SpendScope; period: string; spent: number }>(
      'SELECT scope, period, spent FROM money_spend WHERE scope = ANY($1::text[]) AND period = ANY($2::text[])',
      [scopes, ['total', day, month]],
    );
    for (const row of rows) {
      const spend = out.get(row.scope)!;
      if (row.period === 'total') spend.total = row.spent;
      else if (row.period === day) spend.day = row.spent;
      else spend.month = row.spent;
    }
    return out;
  }

  async reserve(r: ReservationRequest): Promise<Refusal | undefined> {
    const { rows } = await this.db.query<{ what: Refusal['what']; scope: SpendScope; lim: number; used: number }>(
      'SELECT * FROM money_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [r.id, r.accountId, r.keyId, r.amount, r.owner, r.leaseMs, r.periods.day, r.periods.month, r.requireBalance],
      { idempotent: false },
    );
    const row = rows[0];
    return row && { what: row.what, scope: row.scope, limit: row.lim, used: row.used };
  }

  async release(id: string, amount?: number): Promise<void> {
    const { rows } = await this.db.query<{ account_id: string }>(
      'SELECT account_id FROM money_reservations WHERE id = $1',
      [id],
    );
    const accountId = rows[0]?.account_id;
    if (accountId === undefined) return;
    await inTransaction(
      this.db,
      async (client) => {
        // The balance row's lock first, as reservations and settlements take it; then the
        // reservation as it is now (a settlement may have taken it meanwhile).
        await client.query('SELECT 1 FROM money_balances WHERE account_id = $1 FOR UPDATE', [accountId]);
        const { rows: held } = await client.query<{ amount: number }>(
          'SELECT amount FROM money_reservations WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (held[0] === undefined) return;
        const part = amount === undefined ? held[0].amount : Math.min(Math.max(0, amount), held[0].amount);
        if (amount === undefined) await client.query('DELETE FROM money_reservations WHERE id = $1', [id]);
        else await client.query('UPDATE money_reservations SET amount = amount - $2 WHERE id = $1', [id, part]);
        await client.query('UPDATE money_balances SET reserved = reserved - $2 WHERE account_id = $1', [
          accountId,
          part,
        ]);
      },
      // A partial release run twice would give back twice.
      { idempotent: amount === undefined },
    );
  }

  async renewLeases(owner: string, leaseMs: number): Promise<void> {
    await this.db.query(
      'UPDATE money_reservations SET lease_until = money_now_ms() + $2 WHERE owner = $1',
      [owner, leaseMs],
      { idempotent: true },
    );
  }

  releaseExpired(): Promise<number> {
    return inTransaction(
      this.db,
      async (client) => {
        const { rows: accounts } = await client.query<{ account_id: string }>(
          `SELECT account_id FROM money_balances WHERE account_id IN (
             SELECT account_id FROM money_reservations WHERE lease_until < money_now_ms()
           ) ORDER BY account_id FOR UPDATE`,
        );
        if (accounts.length === 0) return 0;
        const { rowCount } = await client.query(
          `WITH gone AS (
             DELETE FROM money_reservations WHERE lease_until < money_now_ms() AND account_id = ANY($1::text[])
             RETURNING account_id, amount
           ), sums AS (SELECT account_id, SUM(amount) AS amount FROM gone GROUP BY account_id)
           UPDATE money_balances b SET reserved = b.reserved - sums.amount FROM sums
           WHERE b.account_id = sums.account_id RETURNING b.account_id`,
          [accounts.map((a) => a.account_id)],
        );
        return rowCount ?? 0;
      },
      { idempotent: true },
    );
  }

  async reservedForKey(keyId: string): Promise<number> {
    const { rows } = await this.db.query<{ sum: string }>(
      'SELECT COALESCE(SUM(amount), 0) AS sum FROM money_reservations WHERE key_id = $1',
      [keyId],
    );
    return Number(rows[0]?.sum ?? 0);
  }

  /**
   * Inside the usage transaction: settles the records it wrote. The balance rows are locked in
   * account order first; a reservation already released (its lease ran out) is not released twice.
   */
  async settleIn(client: Queryable, written: readonly UsageRecord[]): Promise<void> {
    const moving = written.filter(movesMoney);
    if (moving.length === 0) return;
    const now = Date.now();
    const accounts = [...new Set(moving.map(accountOf))].sort();
    await client.query(
      `INSERT INTO money_balances (account_id, balance, reserved, updated_at)
       SELECT a, 0, 0, $2 FROM unnest($1::text[]) AS a ON CONFLICT (account_id) DO NOTHING`,
      [accounts, now],
    );
    const { rows: locked } = await client.query<{ account_id: string; balance: number; reserved: number }>(
      'SELECT account_id, balance, reserved FROM money_balances WHERE account_id = ANY($1::text[]) ORDER BY account_id FOR UPDATE',
      [accounts],
    );
    const before = new Map(locked.map((r) => [r.account_id, r.balance]));
    const ids = moving.flatMap((r) => (r.reservationId === undefined ? [] : [r.reservationId]));
    // What each record's reservation still holds (none once its lease ran out and a sweep released it).
    const { rows: released } = await client.query<{ id: string; account_id: string; amount: number }>(
      'DELETE FROM money_reservations WHERE id = ANY($1::text[]) RETURNING id, account_id, amount',
      [ids],
    );
    const releasedBy = new Map<string, number>();
    for (const r of released) releasedBy.set(r.account_id, (releasedBy.get(r.account_id) ?? 0) + r.amount);
    const reservedBefore = new Map(locked.map((r) => [r.account_id, r.reserved]));
    const plan = planSettlement(
      moving,
      {
        balanceOf: (a) => before.get(a) ?? 0,
        reservedByOthers: (a) => (reservedBefore.get(a) ?? 0) - (releasedBy.get(a) ?? 0),
        held: new Map(released.map((r) => [r.id, r.amount])),
        requireBalance: this.requireBalance,
      },
      this.calendar,
    );
    const cut = plan.cut.filter((c) => c.record.journalId !== undefined);
    if (cut.length > 0) {
      await client.query(
        `UPDATE usage_records u SET cost = c.cost FROM unnest($1::text[], $2::bigint[]) AS c(journal_id, cost)
         WHERE u.journal_id = c.journal_id`,
        [cut.map((c) => c.record.journalId), cut.map((c) => c.billed)],
      );
    }
    const balances = accounts.map((a) => plan.balances.get(a) ?? before.get(a) ?? 0);
    await client.query(
      `UPDATE money_balances b SET balance = u.balance, reserved = b.reserved - u.released, updated_at = $4
       FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS u(account_id, balance, released)
       WHERE b.account_id = u.account_id`,
      [accounts, balances, accounts.map((a) => releasedBy.get(a) ?? 0), now],
    );
    if (plan.ledger.length > 0) {
      const col = <T>(pick: (row: (typeof plan.ledger)[number]) => T) => plan.ledger.map(pick);
      await client.query(
        `INSERT INTO money_ledger (${LEDGER_INSERT_COLUMNS})
         SELECT u.account_id, u.amount, u.balance_after, 'usage', u.actor, u.note, u.ref, u.key_id, u.at
         FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[])
           AS u(account_id, amount, balance_after, actor, note, ref, key_id, at)`,
        [
          col((r) => r.accountId),
          col((r) => r.amount),
          col((r) => r.balanceAfter),
          col((r) => r.actor),
          col((r) => r.note),
          col((r) => r.ref),
          col((r) => r.keyId),
          col((r) => r.at),
        ],
      );
    }
    if (plan.spend.length > 0) {
      await client.query(
        `INSERT INTO money_spend (scope, period, spent)
         SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])
         ON CONFLICT (scope, period) DO UPDATE SET spent = money_spend.spent + EXCLUDED.spent`,
        [plan.spend.map((s) => s.scope), plan.spend.map((s) => s.period), plan.spend.map((s) => s.amount)],
      );
    }
  }

  async priceOverrides(): Promise<PriceOverride[]> {
    const { rows } = await this.db.query<PriceOverrideRow>('SELECT * FROM price_overrides ORDER BY code');
    return rows.map(overrideFromRow);
  }

  async setPriceOverride(o: PriceOverride): Promise<void> {
    await this.db.query(
      `INSERT INTO price_overrides (code, price, updated_at, updated_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (code) DO UPDATE SET price = EXCLUDED.price, updated_at = EXCLUDED.updated_at,
         updated_by = EXCLUDED.updated_by`,
      [o.code, o.price, o.updatedAt, o.updatedBy],
      { idempotent: true },
    );
  }

  async deletePriceOverride(code: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM price_overrides WHERE code = $1', [code], {
      idempotent: true,
    });
    return (rowCount ?? 0) > 0;
  }

  async createCodeBatch(batch: Omit<CodeBatch, 'redeemed'>, codes: { hash: string; encrypted: string }[]) {
    await inTransaction(
      this.db,
      async (client) => {
        const b = batch;
        await client.query(
          `INSERT INTO redemption_batches (id, amount, count, expires_at, note, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [b.id, b.amount, b.count, b.expiresAt ?? null, b.note, b.createdBy, b.createdAt],
        );
        await client.query(
          `INSERT INTO redemption_codes (code_hash, batch_id, code_encrypted)
           SELECT h, $2, e FROM unnest($1::text[], $3::text[]) AS u(h, e)`,
          [codes.map((c) => c.hash), b.id, codes.map((c) => c.encrypted)],
        );
      },
      { idempotent: false },
    );
  }

  async codeBatches(): Promise<CodeBatch[]> {
    const { rows } = await this.db.query<BatchRow>(`${BATCHES_SELECT} ORDER BY b.created_at DESC, b.id`);
    return rows.map(batchFromRow);
  }

  async codes(batchId: string): Promise<RedemptionCode[]> {
    const { rows } = await this.db.query<CodeRow>(
      'SELECT * FROM redemption_codes WHERE batch_id = $1 ORDER BY code_hash',
      [batchId],
    );
    return rows.map(codeFromRow);
  }

  redeem(hash: string, accountId: string, actor: string, at: number): Promise<RedeemResult> {
    return inTransaction(
      this.db,
      async (client): Promise<RedeemResult> => {
        // The balance row first, as everywhere: then the code's row.
        const { balance } = await lockBalance(client, accountId, at);
        const { rows } = await client.query<CodeRow>('SELECT * FROM redemption_codes WHERE code_hash = $1 FOR UPDATE', [
          hash,
        ]);
        const code = rows[0];
        if (!code) return { ok: false, reason: 'unknown' };
        if (code.redeemed_by !== null) return { ok: false, reason: 'redeemed' };
        const { rows: batches } = await client.query<BatchRow>(`${BATCHES_SELECT} WHERE b.id = $1`, [code.batch_id]);
        const batch = batchFromRow(batches[0]!);
        if (batch.expiresAt !== undefined && batch.expiresAt <= at) return { ok: false, reason: 'expired' };
        await client.query('UPDATE redemption_codes SET redeemed_by = $1, redeemed_at = $2 WHERE code_hash = $3', [
          accountId,
          at,
          hash,
        ]);
        const note = batch.note ? `redemption code: ${batch.note}` : 'redemption code';
        const movement = { accountId, amount: batch.amount, kind: 'redeem' as const, actor, note, ref: batch.id, at };
        const entry = await writeMovement(client, movement, balance);
        return { ok: true, entry, batch: { ...batch, redeemed: batch.redeemed + 1 } };
      },
      { idempotent: false },
    );
  }
}
