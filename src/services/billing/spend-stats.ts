import type { Refusal } from '../../stores/money.js';
import { accountOf } from '../../stores/settlement.js';
import type { UsageRecord } from '../../stores/types.js';

/** What /metrics shows of money, counted in the process and read at scrape time. */
export class SpendStats {
  /** Minor units billed, by model (or operation) and account. */
  readonly spend = new Map<string, { model: string; account: string; amount: number }>();
  /** Calls refused for money, by scope kind (`account`, `key`) and what ran out. */
  readonly refusals = new Map<string, { scope: string; what: string; count: number }>();
  /** Reservations of dead processes released when their lease ran out. */
  expiredReleases = 0;

  /** A call's usage record as the call ends: what it cost, by model (or operation) and paying account. */
  recorded(record: UsageRecord): void {
    if (record.cost !== undefined) this.billed(record.model ?? record.operation, accountOf(record), record.cost);
  }

  billed(model: string, account: string, amount: number): void {
    if (amount <= 0) return;
    const id = `${model}\n${account}`;
    const entry = this.spend.get(id);
    if (entry) entry.amount += amount;
    else this.spend.set(id, { model, account, amount });
  }

  refused(refusal: Refusal): void {
    const scope = refusal.scope.slice(0, refusal.scope.indexOf(':'));
    const id = `${scope}\n${refusal.what}`;
    const entry = this.refusals.get(id);
    if (entry) entry.count++;
    else this.refusals.set(id, { scope, what: refusal.what, count: 1 });
  }

  expired(count: number): void {
    this.expiredReleases += count;
  }
}
