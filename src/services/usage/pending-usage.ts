import type { UsageWindow } from '../../stores/types.js';

/**
 * When each of a key's records not yet in the store was made (held in memory or only in the
 * journal): usage windows count them too, so a limit holds while the store is slow or down. Two
 * numbers' worth per record, whatever the record holds. A multiset: removing a time removes one
 * record made then, which keeps the counts exact even when two were made in the same millisecond.
 */
export class PendingUsage {
  private readonly byKey = new Map<string, number[]>();

  add(keyId: string, createdAt: number): void {
    const times = this.byKey.get(keyId);
    if (times) times.push(createdAt);
    else this.byKey.set(keyId, [createdAt]);
  }

  remove(keyId: string, createdAt: number): void {
    const times = this.byKey.get(keyId);
    if (!times) return;
    // Records reach the store in about the order they were made: the time is near the front.
    const i = times.indexOf(createdAt);
    if (i < 0) return;
    times.splice(i, 1);
    if (times.length === 0) this.byKey.delete(keyId);
  }

  window(keyId: string, since: number): UsageWindow {
    return tally(this.byKey.get(keyId) ?? [], since, { count: 0, oldest: undefined });
  }

  /** The records of every key that `belongs` picks (the keys of one account); few wait at a time. */
  windowWhere(belongs: (keyId: string) => boolean, since: number): UsageWindow {
    let window: UsageWindow = { count: 0, oldest: undefined };
    for (const [keyId, times] of this.byKey) if (belongs(keyId)) window = tally(times, since, window);
    return window;
  }
}

function tally(times: readonly number[], since: number, from: UsageWindow): UsageWindow {
  let { count, oldest } = from;
  for (const t of times) {
    if (t < since) continue;
    count++;
    if (oldest === undefined || t < oldest) oldest = t;
  }
  return { count, oldest };
}
