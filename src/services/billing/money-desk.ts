import type { PriceConfig } from '../../config/billing-schema.js';
import { invalidField, invalidRequest, notFound, tooManyPerMinute } from '../../errors/errors.js';
import { randomHex } from '../../ids/random-hex.js';
import {
  ADMIN_ACCOUNT,
  accountScope,
  type Budget,
  type CodeBatch,
  type LedgerEntry,
  type LedgerQuery,
  type SpendScope,
} from '../../stores/money.js';
import type { Store } from '../../stores/types.js';
import type { Actor } from '../audit/audit-service.js';
import type { SecretBox } from '../keys/secret-box.js';
import { formatAmount } from './amount.js';
import type { BillingService } from './billing-service.js';
import { newRedemptionCode, normalizeRedemptionCode, redemptionCodeHash } from './redemption-codes.js';

export interface NewCodeBatch {
  amount: number;
  count: number;
  expiresAt: number | undefined;
  note: string;
}

/** Failed redemptions an account may make in a window before it must wait. */
const REDEEM_FAILURES = 10;
const REDEEM_WINDOW_MS = 15 * 60_000;

/**
 * The admin's and account holders' money operations: balances, credits and debits, the ledger,
 * budgets, redemption codes and prices. Every act that moves money or changes a price, budget or
 * code is recorded in the audit log (`record`, the one place that calls it).
 */
export class MoneyDesk {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly billing: BillingService,
    private readonly store: Store,
    private readonly box: SecretBox,
  ) {}

  /** The account, which must exist: `admin`, or an account holder's id. */
  async requireAccount(id: string): Promise<string> {
    if (id === ADMIN_ACCOUNT) return id;
    const account = await this.store.accounts.getAccount(id);
    if (!account) throw notFound(`Account ${id} does not exist`);
    return account.id;
  }

  async balance(accountId: string) {
    return this.store.money.balance(await this.requireAccount(accountId));
  }

  /** A credit (amount > 0) or debit (< 0) by the admin, with a ledger entry; a debit may not overdraw. */
  async credit(accountId: string, amount: number, note: string, by: Actor): Promise<LedgerEntry> {
    if (amount === 0) throw invalidField('amount', 'must not be 0');
    const account = await this.requireAccount(accountId);
    const kind = amount > 0 ? 'credit' : 'debit';
    const before = await this.store.money.balance(account);
    const moved = await this.store.money.move({
      accountId: account,
      amount,
      kind,
      actor: by.id,
      note,
      at: Date.now(),
      covered: true,
    });
    if (!moved.ok) {
      const available = moved.balance.balance - moved.balance.reserved;
      const currency = this.billing.currency;
      throw invalidField(
        'amount',
        `the debit is more than the account's available balance (${formatAmount(available)} ${currency}, after what calls in progress hold)`,
      );
    }
    await this.record(
      by,
      `balance.${kind}`,
      accountScope(account),
      { balance: formatAmount(before.balance) },
      {
        balance: formatAmount(moved.entry.balanceAfter),
        amount: formatAmount(amount),
        note,
        ledger_id: moved.entry.id,
      },
    );
    return moved.entry;
  }

  ledger(query: LedgerQuery): Promise<LedgerEntry[]> {
    return this.store.money.ledger(query);
  }

  async budget(scope: SpendScope): Promise<Budget | undefined> {
    return (await this.store.money.budgets()).get(scope);
  }

  async setBudget(scope: SpendScope, budget: Budget | undefined, by: Actor): Promise<void> {
    const before = await this.budget(scope);
    await this.store.money.setBudget(scope, budget, Date.now());
    await this.record(by, 'budget.set', scope, budgetFigures(before), budgetFigures(budget));
  }

  /** A batch of single-use codes; the codes are in this answer (and the admin may list them again). */
  async createCodes(input: NewCodeBatch, by: Actor): Promise<{ batch: CodeBatch; codes: string[] }> {
    const max = this.billing.options.config.max_redemption_codes;
    if (input.count > max) throw invalidField('count', `must be at most ${max} (billing.max_redemption_codes)`);
    if (input.expiresAt !== undefined && input.expiresAt <= Date.now())
      throw invalidField('expires_at', 'must be in the future');
    const codes = Array.from({ length: input.count }, newRedemptionCode);
    const batch = { id: randomHex(12), ...input, createdBy: by.id, createdAt: Date.now() };
    await this.store.money.createCodeBatch(
      batch,
      codes.map((code) => ({
        hash: redemptionCodeHash(normalizeRedemptionCode(code)!),
        encrypted: this.box.seal(code),
      })),
    );
    // The audit log never holds a code: the batch's figures only.
    await this.record(by, 'codes.create', `codes:${batch.id}`, null, {
      amount: formatAmount(batch.amount),
      count: batch.count,
      expires_at: batch.expiresAt === undefined ? null : new Date(batch.expiresAt).toISOString(),
      note: batch.note,
    });
    return { batch: { ...batch, redeemed: 0 }, codes };
  }

  batches(): Promise<CodeBatch[]> {
    return this.store.money.codeBatches();
  }

  async batchCodes(batchId: string) {
    const codes = await this.store.money.codes(batchId);
    if (codes.length === 0) throw notFound(`Code batch ${batchId} does not exist`);
    return codes
      .map((c) => ({ code: this.box.open(c.encrypted), redeemedBy: c.redeemedBy, redeemedAt: c.redeemedAt }))
      .sort((a, b) => a.code.localeCompare(b.code));
  }

  /** Redeems a code for an account: once, before its batch expires; failures are counted per account. */
  async redeem(code: string, accountId: string, by: Actor): Promise<LedgerEntry> {
    const account = await this.requireAccount(accountId);
    this.checkFailures(account);
    const normalized = normalizeRedemptionCode(code);
    const result = normalized
      ? await this.store.money.redeem(redemptionCodeHash(normalized), account, by.id, Date.now())
      : ({ ok: false, reason: 'unknown' } as const);
    if (!result.ok) {
      this.failed(account);
      const why = {
        unknown: 'no such code',
        redeemed: 'the code was redeemed already',
        expired: 'the code has expired',
      };
      throw invalidField('code', why[result.reason]);
    }
    await this.record(by, 'code.redeem', accountScope(account), null, {
      batch: result.batch.id,
      amount: formatAmount(result.entry.amount),
      balance: formatAmount(result.entry.balanceAfter),
      ledger_id: result.entry.id,
    });
    return result.entry;
  }

  async setPrice(code: string, price: PriceConfig | null, by: Actor): Promise<void> {
    const before = this.billing.prices.view(code)?.price ?? null;
    try {
      await this.billing.prices.set(code, price, by.id);
    } catch (err) {
      if (err instanceof RangeError) throw invalidRequest(`Invalid price: ${err.message}`);
      throw err;
    }
    await this.record(by, 'price.set', `price:${code}`, before, price);
  }

  async resetPrice(code: string, by: Actor): Promise<void> {
    const before = this.billing.prices.view(code)?.price ?? null;
    if (!(await this.billing.prices.reset(code))) throw notFound(`No edited price for ${code}`);
    await this.record(by, 'price.reset', `price:${code}`, before, this.billing.prices.view(code)?.price ?? null);
  }

  private checkFailures(account: string): void {
    const now = Date.now();
    const recent = (this.failures.get(account) ?? []).filter((t) => now - t < REDEEM_WINDOW_MS);
    if (recent.length === 0) this.failures.delete(account);
    else this.failures.set(account, recent);
    if (recent.length >= REDEEM_FAILURES) {
      const wait = Math.ceil((recent[0]! + REDEEM_WINDOW_MS - now) / 1000);
      throw tooManyPerMinute(`Too many failed redemption attempts: try again in ${wait} s`, { retryAfter: wait });
    }
  }

  private failed(account: string): void {
    const list = this.failures.get(account) ?? [];
    list.push(Date.now());
    this.failures.set(account, list);
  }

  /** The one place money's acts reach the audit log. */
  private record(by: Actor, action: string, target: string, before: unknown, after: unknown): Promise<void> {
    return this.billing.audit.record(by, { action, target, before, after });
  }
}

/** A budget as the audit log shows it: decimal strings, null for no limit. */
function budgetFigures(budget: Budget | undefined) {
  if (budget === undefined) return null;
  const figure = (v: number | undefined) => (v === undefined ? null : formatAmount(v));
  return { total: figure(budget.total), daily: figure(budget.daily), monthly: figure(budget.monthly) };
}
