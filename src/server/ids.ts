import { randomBytes } from 'node:crypto';

/** `yyyyMMddHHmmss` in UTC followed by 16 lowercase hex characters (decisions.md §1): 30 characters. */
export function newPlatformId(now: Date = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/[-:T]/g, '');
  return stamp + randomBytes(8).toString('hex');
}

/** `call_` followed by 24 lowercase hex characters. */
export function newToolCallId(): string {
  return `call_${randomBytes(12).toString('hex')}`;
}

export const unixSeconds = (ms: number = Date.now()): number => Math.floor(ms / 1000);
