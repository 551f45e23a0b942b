import { describe, expect, it } from 'vitest';
import { JobSlots } from '../../../src/services/images/job-slots.js';

describe('job slots', () => {
  it('grants up to the size, lines up callers to the limit, then answers 1305', async () => {
    const slots = new JobSlots(1, 1);
    await slots.acquire(new AbortController().signal);
    expect(slots.tryAcquire()).toBe(false);
    let second = false;
    const waiting = slots.acquire(new AbortController().signal).then(() => (second = true));
    await expect(slots.acquire(new AbortController().signal)).rejects.toMatchObject({ code: 1305, retryAfter: 5 });
    slots.release();
    await waiting;
    expect(second).toBe(true);
    expect(slots.inUse).toBe(1);
    slots.release();
    expect(slots.inUse).toBe(0);
  });

  it('drops a caller that goes away from the line', async () => {
    const slots = new JobSlots(1, 5);
    await slots.acquire(new AbortController().signal);
    const controller = new AbortController();
    const gone = slots.acquire(controller.signal);
    controller.abort(new Error('client left'));
    await expect(gone).rejects.toThrow('client left');
    slots.release();
    expect(slots.inUse).toBe(0);
  });

  it('tells workers when a slot frees, and serves sync callers in line first', async () => {
    const slots = new JobSlots(1, 5);
    let freed = 0;
    slots.onFree(() => freed++);
    await slots.acquire(new AbortController().signal);
    const waiting = slots.acquire(new AbortController().signal);
    slots.release();
    await waiting;
    expect(freed).toBe(0);
    slots.release();
    expect(freed).toBe(1);
  });

  it('serves the line key by key: a key with one job goes before the rest of another key’s burst', async () => {
    const slots = new JobSlots(1, 10);
    const order: string[] = [];
    const never = new AbortController().signal;
    await slots.acquire(never, 'burst');
    const waits = [1, 2, 3].map((i) => slots.acquire(never, 'burst').then(() => order.push(`burst${i}`)));
    waits.push(slots.acquire(never, 'lone').then(() => order.push('lone')));
    for (let i = 0; i < 4; i++) {
      slots.release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(waits);
    expect(order).toEqual(['lone', 'burst1', 'burst2', 'burst3']);
  });
});
