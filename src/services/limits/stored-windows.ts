import type { Store, UsageWindow } from '../../stores/types.js';

/** Requests made but not yet in the store, which count towards usage windows too. */
export type PendingUsage = (keyId: string, since: number) => UsageWindow;

/** A key's requests since a time as the store knows them, plus those this process has not written yet. */
export async function storedWindow(
  store: Store,
  pending: PendingUsage | undefined,
  keyId: string,
  since: number,
): Promise<UsageWindow> {
  const stored = await store.usageWindow(keyId, since);
  const waiting = pending?.(keyId, since);
  if (!waiting || waiting.count === 0) return stored;
  const oldest = Math.min(stored.oldest ?? Number.POSITIVE_INFINITY, waiting.oldest ?? Number.POSITIVE_INFINITY);
  return { count: stored.count + waiting.count, oldest: Number.isFinite(oldest) ? oldest : undefined };
}
