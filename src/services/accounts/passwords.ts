import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * OWASP's Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1, or one of the settings it
 * lists as equivalent; this is N=2^16, r=8, p=2 (64 MiB and about as much work as 2^17 with p=1),
 * which halves the memory each concurrent hash holds. Hashes made with other parameters (the
 * earlier N=2^15, p=1) still verify, and are replaced at the holder's next sign-in.
 */
export const PASSWORD_PARAMS = { N: 65_536, r: 8, p: 2 } as const;
const KEY_LENGTH = 32;
/** Above the 128·N·r bytes a hash needs, and a ceiling on what a stored hash may ask for. */
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAX_MEMORY }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = PASSWORD_PARAMS;
  const hash = await derive(password, salt, PASSWORD_PARAMS);
  return ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored hash was made with other parameters than today's (then it is replaced at sign-in). */
export function needsRehash(stored: string): boolean {
  const [kind, n, r, p] = stored.split('$');
  const { N, r: R, p: P } = PASSWORD_PARAMS;
  return kind !== 'scrypt' || Number(n) !== N || Number(r) !== R || Number(p) !== P;
}

/** An initial password that is shown once: 16 random bytes, URL-safe. */
export const newPassword = (): string => randomBytes(16).toString('base64url');
