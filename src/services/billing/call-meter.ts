import type { ApiError } from '../../errors/api-error.js';
import type { Refusal } from '../../stores/money.js';
import type { Price } from './price.js';

/** A reservation that cannot be answered at once: the caller takes the asynchronous way. */
export const WAIT: unique symbol = Symbol('wait');

/** What a meter needs of the billing service: prices, and a reservation held or refused. */
export interface Reserver {
  /** The price in force now for a model code or operation; undefined: free. */
  priceOf(code: string): Price | undefined;
  /** Holds `amount` more under the meter's reservation; what refused it when it does not fit. */
  hold(meter: CallMeter, amount: number): Promise<Refusal | undefined>;
  /** As `hold`, answered at once where the store can (`MoneyStore.reserveNow`); WAIT where it cannot. */
  holdNow(meter: CallMeter, amount: number): Refusal | undefined | typeof WAIT;
  /** The 1113 answer to a refusal (counted for /metrics). */
  refused(meter: CallMeter, refusal: Refusal, amount: number): ApiError;
}

/** One priced piece of a call's work: its cost as things stand (tokens grow while a stream runs). */
export interface MeterLine {
  cost(): number;
}

/**
 * The money of one call (or of an asynchronous task): who pays, the reservation that admitted its
 * work, and what the work cost. Each priced piece of work reserves its worst case before it starts
 * (`reserve`) and says what it cost once it ends (`finish`); what a finished piece did not use is
 * spare, and the next piece reserves only what the spare does not cover, so a long agent run holds
 * about its largest piece plus what it has spent, with one round trip to the store per piece at most.
 * The call's usage record carries the sum of the lines (`cost()`) and the reservation, and writing
 * the record settles both (stores/settlement.ts). A line keeps the `Price` it began with.
 */
export class CallMeter {
  readonly lines: MeterLine[] = [];
  /** What the reservation holds (minor units). */
  held = 0;
  /** Whether anything was ever reserved (the record then settles the reservation). */
  reserved = false;
  /** The account that pays, once known (the key's holder, `admin` for the admin's keys). */
  accountId: string | undefined = undefined;
  /** Prompt tokens served from an engine's cache, summed over the call's model calls. */
  cachedTokens = 0;
  /** What refused this call, when a reservation was refused. */
  refusal: Refusal | undefined = undefined;
  /** Worst cases of the pieces running plus the costs of those finished. */
  private committed = 0;

  constructor(
    private readonly reserver: Reserver,
    readonly keyId: string,
    /** The reservation's id: the request's own id, or the task's. */
    readonly reservationId: string,
    /** The process (or task) that renews the reservation's lease. */
    readonly owner: string,
  ) {}

  priceOf(code: string): Price | undefined {
    return this.reserver.priceOf(code);
  }

  /** Reserves a piece's worst case before it starts (what is spare first); throws 1113 when it does not fit. */
  async reserve(worst: number): Promise<void> {
    const refusal = await this.tryReserve(worst);
    if (refusal) throw this.refuse(refusal, worst);
  }

  /** The 1113 answer to a refusal of `worst` (counted once, for /metrics). */
  refuse(refusal: Refusal, worst: number): ApiError {
    this.refusal = refusal;
    return this.reserver.refused(this, refusal, worst);
  }

  /** As `reserve`, but a refusal is returned (the caller may try a smaller worst case). */
  async tryReserve(worst: number): Promise<Refusal | undefined> {
    if (worst <= 0) return undefined;
    const need = this.need(worst);
    if (need > 0) {
      const refusal = await this.reserver.hold(this, need);
      if (refusal) return refusal;
      this.holding(need);
    }
    this.committed += worst;
    return undefined;
  }

  /** As `tryReserve`, answered at once where the store can; WAIT (nothing done) where it cannot. */
  tryReserveNow(worst: number): Refusal | undefined | typeof WAIT {
    if (worst <= 0) return undefined;
    const need = this.need(worst);
    if (need > 0) {
      const refusal = this.reserver.holdNow(this, need);
      if (refusal !== undefined) return refusal;
      this.holding(need);
    }
    this.committed += worst;
    return undefined;
  }

  /** What a piece's worst case needs held beyond what is spare. */
  private need(worst: number): number {
    return worst - (this.held - this.committed);
  }

  private holding(amount: number): void {
    this.reserved = true;
    this.held += amount;
  }

  /** A piece reserved at `worst` ended at `cost`: the difference is spare for the next piece. */
  finish(worst: number, cost: number): void {
    if (worst > 0) this.committed += cost - worst;
  }

  add(line: MeterLine): void {
    this.lines.push(line);
  }

  /** Work that cost a fixed amount (a call's price, an image made). */
  addFixed(amount: number): void {
    if (amount > 0) this.lines.push({ cost: () => amount });
  }

  cost(): number {
    let total = 0;
    for (const line of this.lines) total += line.cost();
    return total;
  }
}
