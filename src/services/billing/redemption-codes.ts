import { createHash, randomBytes } from 'node:crypto';

/** Crockford's base32: no I, L, O or U, so a code read aloud or retyped is not mistaken. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const GROUPS = 4;
const GROUP = 4;

/** A new code: `GPC-XXXX-XXXX-XXXX-XXXX`, 80 random bits. */
export function newRedemptionCode(): string {
  const bytes = randomBytes(GROUPS * GROUP);
  let text = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0 && i % GROUP === 0) text += '-';
    text += ALPHABET[bytes[i]! & 31];
  }
  return `GPC-${text}`;
}

/**
 * A code as typed, in the form its hash is taken of: upper case, without the prefix, dashes or
 * spaces, with the letters Crockford's base32 reads as digits (O → 0, I and L → 1). Undefined when
 * it cannot be a code.
 */
export function normalizeRedemptionCode(typed: string): string | undefined {
  const body = typed
    .toUpperCase()
    .replace(/^\s*GPC[-\s]*/, '')
    .replace(/[-\s]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (body.length !== GROUPS * GROUP) return undefined;
  for (const c of body) if (!ALPHABET.includes(c)) return undefined;
  return body;
}

/** What the store keeps to find a code: its SHA-256, hex (a leaked table gives no code away). */
export function redemptionCodeHash(normalized: string): string {
  return createHash('sha256').update(`gen-platform redemption code ${normalized}`).digest('hex');
}
