import { describe, expect, it } from 'vitest';
import type { ReservationRequest } from '../../src/stores/money.js';
import { HeldReservations } from '../../src/stores/sqlite/held-reservations.js';

const request = (id: string, amount: number): ReservationRequest => ({
  id,
  accountId: 'acc',
  keyId: 'key',
  amount,
  owner: 'me',
  leaseMs: 1000,
  periods: { day: '2026-03-01', month: '2026-03' },
  requireBalance: true,
});

function hold(h: HeldReservations, id: string, amount: number): void {
  h.add(request(id, amount), 0, h.byAccount.get('acc'), h.byKey.get('key'));
}

describe('HeldReservations', () => {
  it('sums holds by account and key, and drops a total that falls to 0', () => {
    const h = new HeldReservations();
    hold(h, 'a', 5);
    hold(h, 'b', 3);
    expect([h.ofAccount('acc'), h.ofKey('key')]).toEqual([8, 8]);
    h.release('a');
    h.release('b', 1);
    expect([h.ofAccount('acc'), h.ofKey('key')]).toEqual([2, 2]);
    h.release('b');
    expect([h.byAccount.size, h.byKey.size, h.holds.size]).toEqual([0, 0, 0]);
  });

  it('a hold released to 0 and held again counts in the totals of now, not in those that left', () => {
    const h = new HeldReservations();
    hold(h, 'a', 5);
    h.release('a', 5); // the hold stays, at 0; the totals leave their maps
    hold(h, 'b', 3); // new totals
    h.release('a', 0); // nothing to give back: the new totals stay
    expect(h.ofAccount('acc')).toBe(3);
    hold(h, 'a', 2);
    expect([h.ofAccount('acc'), h.ofKey('key')]).toEqual([5, 5]);
    h.release('a');
    expect([h.ofAccount('acc'), h.ofKey('key')]).toEqual([3, 3]);
    h.release('b');
    expect([h.byAccount.size, h.byKey.size]).toEqual([0, 0]);
  });
});
