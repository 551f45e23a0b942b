import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { BillingConfig } from '../../config/billing-schema.js';
import { ADMIN_ACCOUNT, type Refusal, type ReservationRequest } from '../../stores/money.js';
import type { Store } from '../../stores/types.js';
import { Calendar } from '../../util/calendar.js';
import { failureFields, type LevelAware } from '../../util/failure-fields.js';
import type { AuditService } from '../audit/audit-service.js';
import { CallMeter, type Reserver, WAIT } from './call-meter.js';
import type { PriceBook } from './price-book.js';
import { refusalError } from './refusal.js';
import { SpendStats } from './spend-stats.js';

export interface BillingServiceOptions {
  config: BillingConfig;
  store: Store;
  prices: PriceBook;
  audit: AuditService;
  log: { warn(details: Record<string, unknown>, message: string): void } & LevelAware;
  /** Where spend and refusals are counted for /metrics (made earlier when the usage recorder counts spend into it). */
  stats?: SpendStats | undefined;
}

/** How many keys' owners are remembered (a key's owner never changes once it has been used). */
const OWNER_CACHE = 100_000;

/**
 * Money on the request path: meters for calls, their reservations (held in the store, leased to
 * this process and renewed while it lives), and what /metrics reads of spend and refusals. The
 * admin's operations (balances, ledger, budgets, codes) are in `MoneyDesk` (money-desk.ts).
 */
export class BillingService implements Reserver {
  /** This process, as the owner of the reservations it makes. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  readonly calendar: Calendar;
  readonly stats: SpendStats;
  private readonly owners = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined = undefined;

  constructor(readonly options: BillingServiceOptions) {
    this.stats = options.stats ?? new SpendStats();
    this.calendar = new Calendar(options.config.time_zone);
  }

  get currency(): string {
    return this.options.config.currency;
  }

  get prices(): PriceBook {
    return this.options.prices;
  }

  get audit(): AuditService {
    return this.options.audit;
  }

  /** Whether anything is priced: without a price nothing is metered, reserved or billed. */
  get active(): boolean {
    return this.options.prices.any;
  }

  /** Starts renewing this process's leases and releasing those of processes that died. */
  async start(): Promise<void> {
    await this.options.prices.start();
    const every = Math.max(1000, Math.floor((this.options.config.lease_seconds * 1000) / 3));
    this.timer = setInterval(() => void this.tend(), every);
    this.timer.unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.options.prices.close();
  }

  /** A meter for a call made with this key; its reservation is named by the call's id. */
  meter(keyId: string, callId: string, owner = this.owner): CallMeter {
    return new CallMeter(this, keyId, callId, owner);
  }

  priceOf(code: string) {
    return this.options.prices.priceOf(code);
  }

  /** The account that pays for a key's calls: its holder, or the admin's account. */
  async accountOf(keyId: string): Promise<string> {
    const known = this.owners.get(keyId);
    if (known !== undefined) return known;
    const owner = (await this.options.store.accounts.keyOwner(keyId)) ?? ADMIN_ACCOUNT;
    if (this.owners.size >= OWNER_CACHE) this.owners.clear();
    this.owners.set(keyId, owner);
    return owner;
  }

  hold(meter: CallMeter, amount: number): Promise<Refusal | undefined> {
    // The owner is known after a key's first call: the reservation is then the only wait.
    meter.accountId ??= this.owners.get(meter.keyId);
    if (meter.accountId === undefined) {
      return this.accountOf(meter.keyId).then((accountId) => {
        meter.accountId = accountId;
        return this.hold(meter, amount);
      });
    }
    return this.options.store.money.reserve(this.reservation(meter, meter.accountId, amount));
  }

  holdNow(meter: CallMeter, amount: number): Refusal | undefined | typeof WAIT {
    meter.accountId ??= this.owners.get(meter.keyId);
    const money = this.options.store.money;
    if (meter.accountId === undefined || money.reserveNow === undefined) return WAIT;
    return money.reserveNow(this.reservation(meter, meter.accountId, amount));
  }

  private reservation(meter: CallMeter, accountId: string, amount: number): ReservationRequest {
    return {
      id: meter.reservationId,
      accountId,
      keyId: meter.keyId,
      amount,
      owner: meter.owner,
      leaseMs: meter.owner === this.owner ? this.options.config.lease_seconds * 1000 : TASK_LEASE_MS,
      periods: this.calendar.periodsOf(Date.now()),
      requireBalance: this.options.config.require_balance,
    };
  }

  /** A call's reservation given back whole (its work never ran, and no usage record will settle it). */
  async release(reservationId: string): Promise<void> {
    await this.options.store.money.release(reservationId);
  }

  refused(_meter: CallMeter, refusal: Refusal, amount: number) {
    this.stats.refused(refusal);
    return refusalError(refusal, amount, this.options.config, this.calendar);
  }

  /** Every third of a lease: this process's leases renewed, expired ones (a dead process's) released. */
  private async tend(): Promise<void> {
    const money = this.options.store.money;
    try {
      await money.renewLeases(this.owner, this.options.config.lease_seconds * 1000);
      const released = await money.releaseExpired();
      if (released > 0) this.stats.expired(released);
    } catch (err) {
      this.options.log.warn(failureFields(err, this.options.log), 'billing: renewing or releasing reservations failed');
    }
  }
}

/** A task's reservation waits for the task (a queue, a worker, retries): released at its end, at the latest after a day. */
export const TASK_LEASE_MS = 24 * 3_600_000;
