import type { Store, UsageWindow } from '../../stores/types.js';
import { accountOfSubject } from './subjects.js';

/** Requests made but not yet in the store (of a key, or of every key of an account), which count towards usage windows too. */
export type PendingUsage = (subject: string, since: number) => UsageWindow;

/**
 * A subject's requests since a time as the store knows them, plus those this process has not
 * written yet: a key's own, or for `account:<id>` those of every key the account holds or held
 * (a revoked key's requests still count, so revoking and minting keys never resets a window).
 */
export async function storedWindow(
  store: Store,
  pending: PendingUsage | undefined,
  subject: string,
  since: number,
): Promise<UsageWindow> {
  const accountId = accountOfSubject(subject);
  const stored =
    accountId === undefined
      ? await store.usageWindow(subject, since)
      : await store.accounts.accountUsageWindow(accountId, since);
  const waiting = pending?.(subject, since);
  if (!waiting || waiting.count === 0) return stored;
  const oldest = Math.min(stored.oldest ?? Number.POSITIVE_INFINITY, waiting.oldest ?? Number.POSITIVE_INFINITY);
  return { count: stored.count + waiting.count, oldest: Number.isFinite(oldest) ? oldest : undefined };
}

/** Where records not yet in the store are kept (the usage recorder). */
export interface UnwrittenUsage {
  pending(keyId: string, since: number): UsageWindow;
  pendingWhere(belongs: (keyId: string) => boolean, since: number): UsageWindow;
}

/**
 * The pending usage of a key, or of an account's keys: a key that made a request here was looked up
 * here, so `accountOf` (what this process knows, no store read) attributes its unwritten records.
 */
export function pendingBySubject(
  usage: UnwrittenUsage,
  accountOf: (keyId: string) => string | undefined,
): PendingUsage {
  return (subject, since) => {
    const accountId = accountOfSubject(subject);
    if (accountId === undefined) return usage.pending(subject, since);
    return usage.pendingWhere((keyId) => accountOf(keyId) === accountId, since);
  };
}
