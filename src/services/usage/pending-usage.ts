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
    let count = 0;
    let oldest: number | undefined;
    for (const t of this.byKey.get(keyId) ?? []) {
      if (t < since) continue;
      count++;
      if (oldest === undefined || t < oldest) oldest = t;
    }
    return { count, oldest };
  }
}
