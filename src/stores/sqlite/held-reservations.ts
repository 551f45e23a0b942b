import type { ReservationRequest } from '../money.js';

/** What the reservations of one account, or of one key, hold in all. */
export interface Held {
  amount: number;
}

/** A call's reservation, with the totals it counts in: a release then looks nothing up. */
export interface Hold {
  accountId: string;
  keyId: string;
  account: Held;
  key: Held;
  amount: number;
  owner: string;
  leaseUntil: number;
}

/**
 * Reservations of calls in progress, held in this process (SQLite serves one server process), and
 * what they hold in all by account and by key. A total leaves its map when it falls to 0.
 */
export class HeldReservations {
  readonly holds = new Map<string, Hold>();
  readonly byAccount = new Map<string, Held>();
  readonly byKey = new Map<string, Held>();

  ofAccount(accountId: string): number {
    return this.byAccount.get(accountId)?.amount ?? 0;
  }

  ofKey(keyId: string): number {
    return this.byKey.get(keyId)?.amount ?? 0;
  }

  /** Holds `r.amount` more; `account` and `key`: their totals as the caller found them (undefined: none yet). */
  add(r: ReservationRequest, leaseUntil: number, account: Held | undefined, key: Held | undefined): void {
    if (account === undefined) {
      account = { amount: 0 };
      this.byAccount.set(r.accountId, account);
    }
    if (key === undefined) {
      key = { amount: 0 };
      this.byKey.set(r.keyId, key);
    }
    account.amount += r.amount;
    key.amount += r.amount;
    const hold = this.holds.get(r.id);
    if (hold) {
      // A hold at 0 may count in totals that have since left their maps: it counts in today's.
      hold.account = account;
      hold.key = key;
      hold.amount += r.amount;
      hold.leaseUntil = leaseUntil;
    } else {
      const { accountId, keyId, amount, owner } = r;
      this.holds.set(r.id, { accountId, keyId, account, key, amount, owner, leaseUntil });
    }
  }

  /** Gives back `amount` of a reservation (all of it, and the reservation, when undefined). */
  release(id: string, amount?: number): void {
    const hold = this.holds.get(id);
    if (!hold) return;
    const part = amount === undefined ? hold.amount : Math.min(Math.max(0, amount), hold.amount);
    hold.amount -= part;
    // A total above 0 is its map's own (one that fell to 0 left it, with every hold in it at 0).
    if (part > 0) {
      hold.account.amount -= part;
      hold.key.amount -= part;
      if (hold.account.amount === 0) this.byAccount.delete(hold.accountId);
      if (hold.key.amount === 0) this.byKey.delete(hold.keyId);
    }
    if (amount === undefined) this.holds.delete(id);
  }
}
