import { describe, expect, it } from 'vitest';
import { SequencePool } from '../../../src/engines/chat/llama-cpp/sequence-pool.js';
import { ApiError } from '../../../src/errors/api-error.js';

const never = new AbortController().signal;

describe('SequencePool', () => {
  it('lends the free item with the best score', async () => {
    const pool = new SequencePool(['a', 'bbb', 'cc'], 0);
    const lease = await pool.acquire('k', never, (s) => s.length);
    expect(lease.item).toBe('bbb');
    expect(pool.available).toBe(2);
    lease.release();
    lease.release();
    expect(pool.available).toBe(3);
  });

  it('breaks ties by place in the set, so the items in use stay neighbours', async () => {
    const pool = new SequencePool([0, 1, 2, 3], 0);
    const [a, b, c] = [await pool.acquire('k', never), await pool.acquire('k', never), await pool.acquire('k', never)];
    expect([a.item, b.item, c.item]).toEqual([0, 1, 2]);
    a.release();
    b.release();
    // 0 and 1 went back to the end of the free list behind 3; the next request still takes 0.
    expect((await pool.acquire('k', never)).item).toBe(0);
    expect((await pool.acquire('k', never, (n) => (n === 3 ? 1 : 0))).item).toBe(3);
  });

  it('queues one tenant FIFO up to the limit, then refuses with 1305', async () => {
    const pool = new SequencePool(['only'], 2);
    const first = await pool.acquire('k', never);
    const order: string[] = [];
    const second = pool.acquire('k', never).then((l) => {
      order.push('second');
      return l;
    });
    const third = pool.acquire('k', never).then((l) => {
      order.push('third');
      return l;
    });
    const refused = await pool.acquire('k', never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 1305, retryAfter: 1 });
    first.release();
    (await second).release();
    (await third).release();
    expect(order).toEqual(['second', 'third']);
    expect(pool.available).toBe(1);
  });

  it('a tenant with one request waits behind one turn of another tenant’s burst, not the whole burst', async () => {
    const pool = new SequencePool(['s1', 's2'], 32);
    const order: string[] = [];
    const leases = [await pool.acquire('burst', never), await pool.acquire('burst', never)];
    const waits: Promise<unknown>[] = [];
    const take = (tenant: string, label: string) =>
      waits.push(
        pool.acquire(tenant, never).then((lease) => {
          order.push(label);
          leases.push(lease);
        }),
      );
    for (let i = 1; i <= 14; i++) take('burst', `burst${i}`);
    take('lone', 'lone');
    expect(pool.waiting).toBe(15);
    // The burst took both sequences at once: the lone tenant is next, at the first release.
    leases.shift()?.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['lone']);
    while (leases.length > 0) {
      leases.shift()?.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(waits);
    expect(order).toEqual(['lone', ...Array.from({ length: 14 }, (_, i) => `burst${i + 1}`)]);
  });

  it('a waiter whose signal aborts leaves the queue with the abort reason', async () => {
    const pool = new SequencePool(['only'], 1);
    const held = await pool.acquire('k', never);
    const ac = new AbortController();
    const waiting = pool.acquire('k', ac.signal);
    expect(pool.waiting).toBe(1);
    ac.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(pool.waiting).toBe(0);
    held.release();
    expect(pool.available).toBe(1);
  });

  it('an already aborted signal never takes an item', async () => {
    const ac = new AbortController();
    ac.abort();
    const pool = new SequencePool(['only'], 1);
    await expect(pool.acquire('k', ac.signal)).rejects.toBeDefined();
    expect(pool.available).toBe(1);
  });
});
