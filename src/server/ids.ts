import { randomFillSync } from 'node:crypto';

// Ids are made on every request (twice for chat); one getrandom call per 512 ids instead of one
// each, and the date prefix formatted once per second, keep them off the request path's profile.
const pool = Buffer.alloc(4096);
let offset = pool.length;
let stampSecond = -1;
let stamp = '';

function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}

/** `yyyyMMddHHmmss` in UTC followed by 16 lowercase hex characters (decisions.md §1): 30 characters. */
export function newPlatformId(now: Date = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = now.toISOString().slice(0, 19).replace(/[-:T]/g, '');
  }
  return stamp + randomHex(8);
}

/** `call_` followed by 24 lowercase hex characters. */
export function newToolCallId(): string {
  return `call_${randomHex(12)}`;
}

export const unixSeconds = (ms: number = Date.now()): number => Math.floor(ms / 1000);
