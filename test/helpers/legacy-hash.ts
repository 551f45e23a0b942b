import { scryptSync } from 'node:crypto';

/** A password hash as the first console release made them (N=2^15, r=8, p=1), to test their upgrade. */
export function legacyHash(password: string): string {
  const salt = Buffer.alloc(16, 3);
  const hash = scryptSync(password.normalize('NFKC'), salt, 32, { N: 32_768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', 32768, 8, 1, salt.toString('base64url'), hash.toString('base64url')].join('$');
}
