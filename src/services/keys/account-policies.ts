import type { Config, KeyLimits } from '../../config/schema.js';
import type { AccountPolicy } from '../../stores/accounts.js';
import type { Store } from '../../stores/types.js';

/** What every key of one account shares: its limits, its model allowlist and its cap on keys. */
export interface HeldKey {
  accountId: string;
  /** Counted under `account:<id>` by the limiter; usage windows count the requests of all its keys. */
  limits: KeyLimits;
  models: string[] | undefined;
  maxKeys: number;
}

/** How long a key's holder and its account's policy are reused before they are read again. */
const TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

/** `knownForKey`'s answer when the store must be read. */
export const NOT_KNOWN: unique symbol = Symbol('not known');

/**
 * Accounts' shared limits and allowlists (the account's own policy over `accounts.*` of the config),
 * looked up for every request of a key. Kept for a moment per key, so a burst reads the store once;
 * a change made in this process is seen at once, one made in another process within TTL_MS.
 */
export class AccountPolicies {
  private readonly byKey = new Map<string, { held: HeldKey | undefined; at: number }>();
  /** Which account each key seen here belongs to (kept when a policy change empties `byKey`). */
  private readonly owners = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly defaults: Config['accounts'],
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The account a key belongs to and what it shares; undefined for the admin's keys. */
  async forKey(keyId: string): Promise<HeldKey | undefined> {
    const hit = this.byKey.get(keyId);
    if (hit && this.now() - hit.at < TTL_MS) return hit.held;
    return this.read(keyId);
  }

  /**
   * What `forKey` would answer, when it can answer without the store (read within TTL_MS):
   * `NOT_KNOWN` otherwise. Spares a burst's requests a promise each.
   */
  knownForKey(keyId: string): HeldKey | undefined | typeof NOT_KNOWN {
    const hit = this.byKey.get(keyId);
    return hit && this.now() - hit.at < TTL_MS ? hit.held : NOT_KNOWN;
  }

  private async read(keyId: string): Promise<HeldKey | undefined> {
    const accountId = await this.store.accounts.keyOwner(keyId);
    const held = accountId === undefined ? undefined : await this.forAccount(accountId);
    if (this.byKey.size >= MAX_ENTRIES) this.byKey.clear();
    if (this.owners.size >= MAX_ENTRIES) this.owners.clear();
    if (accountId === undefined) this.owners.delete(keyId);
    else this.owners.set(keyId, accountId);
    this.byKey.set(keyId, { held, at: this.now() });
    return held;
  }

  async forAccount(accountId: string): Promise<HeldKey> {
    return this.resolve(accountId, await this.store.accounts.accountPolicy(accountId));
  }

  resolve(accountId: string, own: AccountPolicy | undefined): HeldKey {
    return {
      accountId,
      limits: {
        concurrent: own?.concurrent ?? this.defaults.concurrent,
        requests_per_minute: own?.requestsPerMinute ?? this.defaults.requests_per_minute,
        windows: own?.windows ?? this.defaults.windows,
      },
      models: own?.models?.length ? own.models : undefined,
      maxKeys: own?.maxKeys ?? this.defaults.max_keys,
    };
  }

  async set(accountId: string, policy: AccountPolicy | undefined): Promise<boolean> {
    const done = await this.store.accounts.setAccountPolicy(accountId, policy);
    this.byKey.clear();
    return done;
  }

  /**
   * The account of a key that made requests through this process, without reading the store: how
   * the usage not yet written is attributed to accounts' windows (every such key was looked up here).
   */
  knownAccountOf(keyId: string): string | undefined {
    return this.owners.get(keyId);
  }

  /** Forgets what was read for a key (its holder changed). */
  forget(keyId: string): void {
    this.byKey.delete(keyId);
  }

  /** Active keys the account holds now. */
  async activeKeys(accountId: string): Promise<number> {
    const [keys, owners] = await Promise.all([this.store.listKeys(), this.store.accounts.keyOwners()]);
    return keys.filter((k) => k.revokedAt === undefined && owners.get(k.id) === accountId).length;
  }
}

export { accountLimiterId } from '../limits/subjects.js';
