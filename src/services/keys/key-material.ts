import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Key ids are 32 hex characters; secrets 32 base64url characters (192 random bits). */
export const KEY_ID_PATTERN = /^[0-9a-f]{32}$/;

export function newKeyId(): string {
  return randomBytes(16).toString('hex');
}

export function newSecret(): string {
  return randomBytes(24).toString('base64url');
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Constant-time comparison of a presented secret with a stored hash. Runs on every request: the
 * one-shot `crypto.hash` (Node 20.12+) spares the Hash object `createHash` builds.
 */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = hash('sha256', secret, 'buffer');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
