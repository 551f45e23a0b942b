import { createHmac, timingSafeEqual } from 'node:crypto';

/** The parts of an HS256 token as the official SDKs build it (docs/wire.md, "Authentication"). */
export interface ParsedJwt {
  apiKey: string;
  /** Expiry in Unix milliseconds. */
  expiresAt: number;
  signingInput: string;
  /** The signature as sent: compared as text with the canonical base64url of the expected one. */
  signature: string;
}

function decodeJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses without verifying; undefined when the token is not a well-formed HS256 JWT of this shape.
 * `exp` is in milliseconds; one above 10^14 is in microseconds (the official Node SDK writes
 * `Date.now() * 1000`), so it is read as such rather than as "never expires".
 */
export function parseJwt(token: string): ParsedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [head, body, sig] = parts as [string, string, string];
  const header = decodeJson(head);
  const payload = decodeJson(body);
  if (!isObject(header) || header['alg'] !== 'HS256' || !isObject(payload)) return undefined;
  const apiKey = payload['api_key'];
  const exp = payload['exp'];
  if (typeof apiKey !== 'string' || typeof exp !== 'number' || !Number.isFinite(exp)) return undefined;
  return {
    apiKey,
    expiresAt: exp > 1e14 ? exp / 1000 : exp,
    signingInput: `${head}.${body}`,
    signature: sig,
  };
}

/** An HS256 token as the official SDKs build it: `api_key`, `exp` and `timestamp` in milliseconds. */
export function signJwt(apiKey: string, secret: string, expiresAt: number, now: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signingInput = `${part({ alg: 'HS256', sign_type: 'SIGN' })}.${part({ api_key: apiKey, exp: expiresAt, timestamp: now })}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
}

/**
 * Node's base64url decoder skips characters outside the alphabet (`!` and all), so decoding the
 * sent signature would accept many spellings of one; only the canonical text verifies.
 */
export function jwtSignatureValid(jwt: ParsedJwt, secret: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(jwt.signingInput).digest('base64url'));
  const sent = Buffer.from(jwt.signature);
  return expected.length === sent.length && timingSafeEqual(expected, sent);
}
