import { randomFillSync } from 'node:crypto';

// Ids are made on every request; one getrandom call per 512 ids instead of one each keeps them off
// the request path's profile.
const pool = Buffer.alloc(4096);
let offset = pool.length;

/** `bytes` random bytes as lowercase hex, from a pool refilled when spent. */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
