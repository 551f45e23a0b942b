import { createHash, timingSafeEqual } from 'node:crypto';
import type { KeyLimits } from '../../config/schema.js';
import { forbidden, invalidToken, keyRevoked, missingAuthorization, tokenExpired } from '../../errors/errors.js';
import type { Endpoint, KeyPolicy, KeyRecord, KeyRole, KeySettings, Store } from '../../stores/types.js';
import { jwtSignatureValid, parseJwt, signJwt } from './jwt.js';
import { hashSecret, KEY_ID_PATTERN, newKeyId, newSecret, secretMatches } from './key-material.js';
import { addressAllowed, expired } from './key-policy.js';
import type { SecretBox } from './secret-box.js';

export interface NewKey {
  name: string;
  /** Absent or undefined: general only. */
  endpoints?: Endpoint[] | undefined;
  role?: KeyRole;
  limits?: KeyLimits | undefined;
  policy?: KeyPolicy | undefined;
}

/** What may be shown of a key after its creation: never the secret. */
export interface KeyView {
  id: string;
  name: string;
  endpoints: Endpoint[];
  role: KeyRole;
  limits: KeyLimits | null;
  created_at: number;
  revoked_at: number | null;
  /** Model codes or patterns the key may call; empty = every model. */
  models: string[];
  /** Unix seconds; null = never. */
  expires_at: number | null;
  allowed_ips: string[];
  description: string;
  /** Unix seconds until which the secret a roll replaced is still accepted; null when there is none. */
  previous_secret_until: number | null;
}

export const toKeyView = (k: KeyRecord): KeyView => ({
  id: k.id,
  name: k.name,
  endpoints: k.endpoints,
  role: k.role,
  limits: k.limits ?? null,
  created_at: Math.floor(k.createdAt / 1000),
  revoked_at: k.revokedAt === undefined ? null : Math.floor(k.revokedAt / 1000),
  models: k.policy?.models ?? [],
  expires_at: k.policy?.expiresAt === undefined ? null : Math.floor(k.policy.expiresAt / 1000),
  allowed_ips: k.policy?.allowedIps ?? [],
  description: k.policy?.description ?? '',
  previous_secret_until: k.previous === undefined ? null : Math.floor(k.previous.until / 1000),
});

const MAX_CHECKED_TOKENS = 10_000;

/** The operator's key from configuration: not stored, compared in constant time. */
const CONFIGURED_ADMIN: Omit<KeyRecord, 'createdAt'> = {
  id: 'admin',
  name: 'configured admin key',
  secretHash: '',
  secretEncrypted: '',
  endpoints: [],
  role: 'admin',
  limits: undefined,
  revokedAt: undefined,
};

export interface KeyServiceOptions {
  store: Store;
  box: SecretBox;
  configuredAdminKey?: string | undefined;
  /** A JWT whose `exp` is further ahead than this (ms) is refused: a stolen one cannot live for years. */
  jwtMaxLifetimeMs?: number;
  now?: () => number;
}

export class KeyService {
  private readonly store: Store;
  private readonly box: SecretBox;
  private readonly adminDigest: Buffer | undefined;
  private readonly now: () => number;
  private readonly jwtMaxLifetimeMs: number;
  /**
   * Each `Authorization` value already checked, with the key row it matched. The store hands out
   * the same row object until the row may have changed, so a value whose row is still that object
   * needs no parsing and no second hash of its secret: the check every request made before is
   * made once per row.
   */
  private readonly checked = new Map<string, KeyRecord>();

  constructor(options: KeyServiceOptions) {
    this.store = options.store;
    this.box = options.box;
    this.now = options.now ?? Date.now;
    this.jwtMaxLifetimeMs = options.jwtMaxLifetimeMs ?? 86_400_000;
    this.adminDigest = options.configuredAdminKey ? digest(options.configuredAdminKey) : undefined;
  }

  /** Creates a key; the returned `key` (`<id>.<secret>`) is the only time the secret is seen. */
  /**
   * Makes a key; with `holder`, held by that account and only within its cap on active keys
   * (checked and inserted atomically in the store): past it, 1220.
   */
  async create(
    input: NewKey,
    holder?: { accountId: string; maxKeys: number },
  ): Promise<{ key: string; record: KeyRecord }> {
    const id = newKeyId();
    const secret = newSecret();
    const record: KeyRecord = {
      id,
      name: input.name,
      secretHash: hashSecret(secret),
      secretEncrypted: this.box.seal(secret),
      endpoints: input.endpoints ?? ['general'],
      role: input.role ?? 'user',
      limits: input.limits,
      createdAt: this.now(),
      revokedAt: undefined,
      policy: input.policy,
    };
    if (!holder) await this.store.createKey(record);
    else if (!(await this.store.createHeldKey(record, holder.accountId, holder.maxKeys))) {
      throw forbidden(
        `Account ${holder.accountId} already holds ${holder.maxKeys} active keys, its cap: revoke one first`,
      );
    }
    return { key: `${id}.${secret}`, record };
  }

  list(): Promise<KeyRecord[]> {
    return this.store.listKeys();
  }

  get(id: string): Promise<KeyRecord | undefined> {
    return this.store.getKey(id);
  }

  revoke(id: string): Promise<boolean> {
    // This process's own revocation holds from the next request on, not a millisecond later.
    this.forget(id);
    return this.store.revokeKey(id, this.now());
  }

  /** Replaces a key's settings (name, endpoints, limits, policy); the key as it now is, or undefined. */
  async update(id: string, settings: KeySettings): Promise<KeyRecord | undefined> {
    this.forget(id);
    if (!(await this.store.updateKey(id, settings))) return undefined;
    return this.store.getKey(id);
  }

  /**
   * Gives a key a new secret, same id and settings. The secret it replaces is still accepted for
   * `graceMs` (0: refused at once); a secret replaced by an earlier roll is refused from now on.
   * The new `<id>.<secret>`, or undefined when there is no such key or it is revoked.
   */
  async roll(id: string, graceMs: number): Promise<{ key: string; record: KeyRecord } | undefined> {
    const before = await this.store.getKey(id);
    if (!before || before.revokedAt !== undefined) return undefined;
    const secret = newSecret();
    const previous =
      graceMs > 0
        ? { secretHash: before.secretHash, secretEncrypted: before.secretEncrypted, until: this.now() + graceMs }
        : undefined;
    this.forget(id);
    await this.store.rollKey(id, { secretHash: hashSecret(secret), secretEncrypted: this.box.seal(secret) }, previous);
    const record = await this.store.getKey(id);
    return record && { key: `${id}.${secret}`, record };
  }

  private forget(id: string): void {
    for (const [header, seen] of this.checked) if (seen.id === id) this.checked.delete(header);
  }

  /** Creates the admin key on first start, unless one is configured or already exists. */
  async ensureAdminKey(): Promise<string | undefined> {
    if (this.adminDigest) return undefined;
    const keys = await this.store.listKeys();
    if (keys.some((k) => k.role === 'admin' && k.revokedAt === undefined)) return undefined;
    return (await this.create({ name: 'admin', role: 'admin', endpoints: [] })).key;
  }

  /**
   * The key behind an `Authorization` header value, or the API error that refuses it. With the
   * caller's `address`, a key with `allowed_ips` is refused from outside them.
   */
  async authenticate(header: string | undefined, address?: string): Promise<KeyRecord> {
    return this.admissible(await this.identify(header), address);
  }

  /** Expiry (from its exact instant: 1003) and the address allowlist (1220) of a key that matched. */
  private admissible(key: KeyRecord, address: string | undefined): KeyRecord {
    if (key.policy === undefined) return key;
    if (expired(key.policy, this.now())) {
      throw tokenExpired(`API key expired at ${new Date(key.policy.expiresAt!).toISOString()}`);
    }
    if (address !== undefined && !addressAllowed(key.policy.allowedIps, address)) {
      throw forbidden(`This API key may not be used from ${address}: it is limited to its allowed_ips`);
    }
    return key;
  }

  private async identify(header: string | undefined): Promise<KeyRecord> {
    const seen = header === undefined ? undefined : this.checked.get(header);
    if (seen !== undefined) {
      const key = await this.store.getKey(seen.id);
      if (key === seen && key.revokedAt === undefined) return key;
    }
    const token = header?.replace(/^\s*bearer\s+/i, '').trim();
    if (!token) throw missingAuthorization('Authorization header is missing: send "Authorization: Bearer <API key>"');
    if (this.adminDigest && timingSafeEqual(digest(token), this.adminDigest)) {
      return { ...CONFIGURED_ADMIN, createdAt: 0 };
    }
    const dots = token.split('.').length - 1;
    if (dots === 2) return this.authenticateJwt(token);
    if (dots !== 1) throw invalidToken('Invalid API key: expected "<id>.<secret>" or a signed token');
    const [id, secret] = token.split('.') as [string, string];
    const key = KEY_ID_PATTERN.test(id) ? await this.store.getKey(id) : undefined;
    if (key && !secretMatches(secret, key.secretHash)) {
      // The secret a roll replaced, during its grace period only; never remembered as checked.
      const previous = key.previous;
      if (previous && previous.until > this.now() && secretMatches(secret, previous.secretHash)) {
        if (key.revokedAt !== undefined) throw keyRevoked('API key has been revoked');
        return key;
      }
      throw invalidToken('Invalid API key');
    }
    if (!key) throw invalidToken('Invalid API key');
    if (key.revokedAt !== undefined) throw keyRevoked('API key has been revoked');
    // Bounded like the store's own cache: at worst the secrets are hashed again.
    if (this.checked.size >= MAX_CHECKED_TOKENS) this.checked.clear();
    this.checked.set(header!, key);
    return key;
  }

  /**
   * A signed token (JWT) for a key, valid until `expiresAt` (Unix ms): a short-lived credential whose
   * key's secret never leaves the server. Undefined when the key is unknown or revoked.
   */
  async signToken(id: string, expiresAt: number): Promise<string | undefined> {
    const key = await this.store.getKey(id);
    if (!key || key.revokedAt !== undefined) return undefined;
    return signJwt(id, this.box.open(key.secretEncrypted), expiresAt, this.now());
  }

  private async authenticateJwt(token: string): Promise<KeyRecord> {
    const jwt = parseJwt(token);
    if (!jwt) throw invalidToken('Invalid token: not an HS256 token with api_key and exp');
    const key = KEY_ID_PATTERN.test(jwt.apiKey) ? await this.store.getKey(jwt.apiKey) : undefined;
    const previous = key?.previous && key.previous.until > this.now() ? key.previous : undefined;
    const signed =
      key !== undefined &&
      (jwtSignatureValid(jwt, this.box.open(key.secretEncrypted)) ||
        (previous !== undefined && jwtSignatureValid(jwt, this.box.open(previous.secretEncrypted))));
    if (!key || !signed) {
      throw invalidToken('Invalid token: unknown key or bad signature');
    }
    if (key.revokedAt !== undefined) throw keyRevoked('API key has been revoked');
    if (jwt.expiresAt <= this.now()) throw tokenExpired('Token expired: its exp is in the past');
    if (jwt.expiresAt > this.now() + this.jwtMaxLifetimeMs) {
      const hours = this.jwtMaxLifetimeMs / 3_600_000;
      throw invalidToken(
        `Invalid token: its exp is more than ${hours} hours ahead (security.jwt_max_lifetime_seconds)`,
      );
    }
    return key;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
