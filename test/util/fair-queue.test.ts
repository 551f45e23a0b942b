import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { RequestCancel } from '../../src/util/cancel-signal.js';
import { FairQueue } from '../../src/util/fair-queue.js';

const queue = (limit = 100) =>
  new FairQueue<number>({ limit, fullMessage: 'The test queue is full, retry later', retryAfter: 3 });

/** Settles pending promise callbacks. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Queues `label` under `key` and records, in `log`, when it is served or refused. */
function enqueue(q: FairQueue<number>, log: string[], key: string, label: string, signal?: RequestCancel) {
  return q.wait(key, signal).then(
    () => {
      log.push(label);
    },
    (err: unknown) => {
      log.push(`${label}:${err instanceof ApiError ? err.code : 'aborted'}`);
    },
  );
}

async function serveAll(q: FairQueue<number>): Promise<void> {
  while (q.serve(0)) await settle();
  await settle();
}

describe('FairQueue', () => {
  it('takes accounts in turn, then the keys within an account (`account/key`)', async () => {
    const q = queue();
    const log: string[] = [];
    const waits = [
      enqueue(q, log, 'a/k1', 'a1'),
      enqueue(q, log, 'a/k1', 'a1'),
      enqueue(q, log, 'a/k2', 'a2'),
      enqueue(q, log, 'a/k3', 'a3'),
      enqueue(q, log, 'b/k9', 'b9'),
      enqueue(q, log, 'b/k9', 'b9'),
      enqueue(q, log, 'lone', 'lone'),
    ];
    await serveAll(q);
    await Promise.all(waits);
    // Four keys of account a get a's one turn in three, as b's one key and the lone key do.
    expect(log).toEqual(['a1', 'b9', 'lone', 'a2', 'b9', 'a3', 'a1']);
  });

  it('serves one key in arrival order', async () => {
    const q = queue();
    const log: string[] = [];
    for (let i = 1; i <= 4; i++) void enqueue(q, log, 'a', `a${i}`);
    expect(q.length).toBe(4);
    await serveAll(q);
    expect(log).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(q.length).toBe(0);
    expect(q.serve(0)).toBe(false);
  });

  it('takes keys in turn: a burst delays another key by one turn per key waiting, not by the burst', async () => {
    const q = queue();
    const log: string[] = [];
    for (let i = 1; i <= 5; i++) void enqueue(q, log, 'a', `a${i}`);
    for (let i = 1; i <= 2; i++) void enqueue(q, log, 'b', `b${i}`);
    void enqueue(q, log, 'c', 'c1');
    await serveAll(q);
    expect(log).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4', 'a5']);
  });

  it('puts a key that had no turn lately ahead of one that had turns without waiting', async () => {
    const q = queue();
    const log: string[] = [];
    // Key a took the two free slots at once, then queued its burst; b arrives with one request.
    q.served('a');
    q.served('a');
    for (let i = 1; i <= 14; i++) void enqueue(q, log, 'a', `a${i}`);
    void enqueue(q, log, 'b', 'b1');
    q.serve(0);
    await settle();
    expect(log).toEqual(['b1']);
  });

  it('a key coming back after its lane emptied stands behind keys that waited since', async () => {
    const q = queue();
    const log: string[] = [];
    void enqueue(q, log, 'a', 'a1');
    void enqueue(q, log, 'b', 'b1');
    void enqueue(q, log, 'b', 'b2');
    q.serve(0); // a1: a's lane empties
    await settle();
    void enqueue(q, log, 'a', 'a2');
    await serveAll(q);
    expect(log).toEqual(['a1', 'b1', 'a2', 'b2']);
  });

  it('refuses with 1305 and Retry-After when full and no lane is longer than the newcomer’s by two', async () => {
    const q = queue(2);
    const log: string[] = [];
    void enqueue(q, log, 'a', 'a1');
    void enqueue(q, log, 'b', 'b1');
    const refusal = await q.wait('c').catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ code: 1305, retryAfter: 3, message: 'The test queue is full, retry later' });
    expect(q.length).toBe(2);
  });

  it('a full queue pushes out the longest lane’s newest entry (1305) to let a shorter lane in', async () => {
    const q = queue(4);
    const log: string[] = [];
    for (let i = 1; i <= 4; i++) void enqueue(q, log, 'a', `a${i}`);
    void enqueue(q, log, 'b', 'b1');
    void enqueue(q, log, 'c', 'c1');
    void enqueue(q, log, 'd', 'd1');
    void enqueue(q, log, 'e', 'e1');
    await settle();
    expect(log).toEqual(['a4:1305', 'a3:1305', 'a2:1305', 'e1:1305']);
    expect(q.length).toBe(4);
    await serveAll(q);
    expect(log.slice(4)).toEqual(['a1', 'b1', 'c1', 'd1']);
  });

  it('an aborted entry leaves its lane with the signal’s reason; the next one is served', async () => {
    const q = queue();
    const log: string[] = [];
    const cancel = new RequestCancel();
    void enqueue(q, log, 'a', 'a1', cancel);
    void enqueue(q, log, 'a', 'a2');
    const reason = new Error('client left');
    const aborted = q.wait('b', cancel).catch((err: unknown) => err);
    cancel.abort(reason);
    expect(await aborted).toBe(reason);
    expect(q.length).toBe(1);
    await serveAll(q);
    expect(log).toEqual(['a1:aborted', 'a2']);
  });

  it('rejects at once a signal already aborted, and an entry served before its abort keeps its value', async () => {
    const q = queue();
    const cancel = new RequestCancel();
    cancel.abort(new Error('gone'));
    await expect(q.wait('a', cancel)).rejects.toThrow('gone');
    const later = new RequestCancel();
    const served = q.wait('a', later);
    q.serve(7);
    later.abort();
    await expect(served).resolves.toBe(7);
    expect(q.length).toBe(0);
  });

  it('clear rejects everything waiting', async () => {
    const q = queue();
    const waits = [q.wait('a'), q.wait('b'), q.wait('a')];
    q.clear(new Error('closing'));
    for (const w of waits) await expect(w).rejects.toThrow('closing');
    expect(q.length).toBe(0);
    expect(q.keys).toBe(0);
  });

  it('keeps no memory of keys once nothing waits', () => {
    const q = queue(4);
    for (let i = 0; i < 10_000; i++) q.served(`k${i}`);
    const stamps = (q as unknown as { stamps: Map<string, number> }).stamps;
    expect(stamps.size).toBeLessThanOrEqual(2 * 4 + 16 + 1);
  });

  type Op = { kind: 'wait'; key: number } | { kind: 'abort'; which: number } | { kind: 'serve' };
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('wait' as const), key: fc.integer({ min: 0, max: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('abort' as const), which: fc.nat() }) },
    { weight: 4, arbitrary: fc.constant({ kind: 'serve' as const }) },
  );

  it('property: each entry settles once, FIFO per key, bounded length, and no key is served twice while another waits for its turn', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.array(op, { maxLength: 80 }), async (limit, ops) => {
        const q = queue(limit);
        type Tracked = { key: string; seq: number; cancel: RequestCancel; settled: number; outcome?: string };
        const all: Tracked[] = [];
        const servedOrder: Tracked[] = [];
        let seq = 0;
        for (const o of ops) {
          if (o.kind === 'wait') {
            const t: Tracked = { key: `k${o.key}`, seq: seq++, cancel: new RequestCancel(), settled: 0 };
            all.push(t);
            q.wait(t.key, t.cancel).then(
              () => {
                t.settled++;
                t.outcome = 'served';
                servedOrder.push(t);
              },
              (err: unknown) => {
                t.settled++;
                t.outcome = err instanceof ApiError ? 'refused' : 'aborted';
              },
            );
          } else if (o.kind === 'abort') {
            const pending = all.filter((t) => t.settled === 0);
            if (pending.length > 0) pending[o.which % pending.length]!.cancel.abort();
          } else {
            q.serve(0);
          }
          await settle();
          expect(q.length).toBeLessThanOrEqual(limit);
          expect(q.length).toBe(all.filter((t) => t.settled === 0).length);
        }
        for (const t of all) expect(t.settled).toBeLessThanOrEqual(1);
        // FIFO within a key.
        const byKey = new Map<string, number>();
        for (const t of servedOrder) {
          expect(t.seq).toBeGreaterThan(byKey.get(t.key) ?? -1);
          byKey.set(t.key, t.seq);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: while a key waits, every other key is served at most once before it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.boolean(), { maxLength: 120 }),
        async (arrivals, serveSteps) => {
          const q = queue(1000);
          const served: string[] = [];
          const waitingSince = new Map<string, number>();
          const pending = new Map<string, number>();
          let arrival = 0;
          for (const step of [...serveSteps, ...arrivals.map(() => true)]) {
            if (!step && arrival < arrivals.length) {
              const key = `k${arrivals[arrival++]}`;
              if (!waitingSince.has(key)) waitingSince.set(key, served.length);
              pending.set(key, (pending.get(key) ?? 0) + 1);
              void q.wait(key).then(() => served.push(key));
            } else if (q.serve(0)) {
              await settle();
              const key = served[served.length - 1]!;
              // Since this key's lane began waiting (or it was last served), no one went twice.
              const since = served.slice(waitingSince.get(key) ?? 0, -1);
              expect(new Set(since).size).toBe(since.length);
              const left = pending.get(key)! - 1;
              pending.set(key, left);
              if (left > 0) waitingSince.set(key, served.length);
              else waitingSince.delete(key);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
