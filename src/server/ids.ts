import { randomHex } from '../ids/random-hex.js';

// The date prefix is formatted once per second: ids are made on every request.
let stampSecond = -1;
let stamp = '';

/** `yyyyMMddHHmmss` in UTC followed by 16 lowercase hex characters (docs/wire.md, "Ids"): 30 characters. */
export function newPlatformId(now: Date = new Date()): string {
  const second = Math.floor(now.getTime() / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = now.toISOString().slice(0, 19).replace(/[-:T]/g, '');
  }
  return stamp + randomHex(8);
}

export const unixSeconds = (ms: number = Date.now()): number => Math.floor(ms / 1000);
