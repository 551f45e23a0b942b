/**
 * The store seam (docs/architecture.md, "Seams"): keys, usage records, the request-id registry and cache entries.
 * Every implementation passes test/contracts/store.contract.ts. Times are Unix milliseconds.
 */
import type { KeyLimits } from '../config/schema.js';
import type { AccountStore } from './accounts.js';
import type { AuditStore } from './audit.js';
import type { ConversationStore } from './conversations.js';
import type { DependencyStatus } from './dependency-status.js';
import type { MoneyStore } from './money.js';
import type { ResponseStore } from './responses.js';
import type { TaskStore } from './tasks.js';
import type { UsageWindow } from './usage-window.js';

export type Endpoint = 'general' | 'coding';
export type KeyRole = 'user' | 'admin';

export interface KeyRecord {
  id: string;
  name: string;
  /** SHA-256 of the secret, hex; compared in constant time. */
  secretHash: string;
  /** The secret, encrypted with the server key (needed to check JWT signatures). */
  secretEncrypted: string;
  endpoints: Endpoint[];
  role: KeyRole;
  /** Limits of this key; undefined = the configured defaults. */
  limits: KeyLimits | undefined;
  createdAt: number;
  revokedAt: number | undefined;
  /** What the key may do beyond its endpoints and limits; absent = everything, for ever, from anywhere. */
  policy?: KeyPolicy | undefined;
  /** After a roll: the secret it replaced, still accepted until `until`. */
  previous?: PreviousSecret | undefined;
}

/** A key's allowlists, expiry and note (services/keys/key-policy.ts checks them). */
export interface KeyPolicy {
  /** Model codes or patterns (`gen-4.5*`) the key may call; absent or empty = every model. */
  models?: string[] | undefined;
  /** Unix ms; from this instant on the key is refused. */
  expiresAt?: number | undefined;
  /** CIDRs (IPv4 or IPv6) the key may be used from; absent or empty = anywhere. */
  allowedIps?: string[] | undefined;
  description?: string | undefined;
}

export interface PreviousSecret {
  secretHash: string;
  secretEncrypted: string;
  /** Unix ms; the old secret is refused from this instant on. */
  until: number;
}

/** What a change of a key's settings may replace; the secret, role and times are not among them. */
export type KeySettings = Pick<KeyRecord, 'name' | 'endpoints' | 'limits' | 'policy'>;

export interface UsageRecord {
  keyId: string;
  operation: string;
  model: string | undefined;
  requestId: string | undefined;
  promptTokens: number;
  completionTokens: number;
  status: number;
  latencyMs: number;
  createdAt: number;
  /** Of the prompt tokens, those the engine served from its prompt cache. */
  cachedTokens?: number | undefined;
  /** What the call cost, in minor units (src/stores/money.ts), at the prices in force when it started. */
  cost?: number | undefined;
  /** The account that pays it (the key's holder; `admin` for the admin's keys). */
  accountId?: string | undefined;
  /** The call's reservation, settled (released, its cost billed) when the record is written. */
  reservationId?: string | undefined;
  /**
   * The record's id in the usage journal it came through (services/usage/); a record whose id
   * the store already holds is not written again, so replaying a journal never counts twice.
   */
  journalId?: string | undefined;
}

export interface UsageTotals {
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** What the calls cost, in minor units. */
  cost: number;
  /** Per operation, the same figures. */
  byOperation: Record<string, { requests: number; promptTokens: number; completionTokens: number; cost: number }>;
}

export type { UsageWindow };

export interface Store {
  /** The console's accounts, sessions, key owners and usage figures. */
  readonly accounts: AccountStore;
  /** Asynchronous tasks (their own sub-interface and contract suite). */
  readonly tasks: TaskStore;
  /** The audit log of administrative acts (append-only; src/stores/audit.ts). */
  readonly audit: AuditStore;
  /** Balances, ledger, budgets, reservations, edited prices and redemption codes (src/stores/money.ts). */
  readonly money: MoneyStore;

  createKey(key: KeyRecord): Promise<void>;
  /**
   * Creates a key held by an account, and records its holder, only while the account holds fewer
   * than `maxKeys` active keys (0 = no cap): the count and the insert are one atomic step, so that
   * simultaneous creations, from any process, never pass the cap. False when the cap is reached.
   */
  createHeldKey(key: KeyRecord, accountId: string, maxKeys: number): Promise<boolean>;
  getKey(id: string): Promise<KeyRecord | undefined>;
  listKeys(): Promise<KeyRecord[]>;
  /** Marks the key revoked; false when no such key exists. Revoking twice keeps the first time. */
  revokeKey(id: string, at: number): Promise<boolean>;
  /** Replaces a key's settings; false when no such key exists. */
  updateKey(id: string, settings: KeySettings): Promise<boolean>;
  /** Gives a key a new secret, keeping `previous` (or none); false when no such key exists. */
  rollKey(
    id: string,
    secret: { secretHash: string; secretEncrypted: string },
    previous: PreviousSecret | undefined,
  ): Promise<boolean>;

  /**
   * Writes usage records, all or none; those whose `journalId` is already stored are skipped. A
   * record written settles its money in the same transaction: its reservation is released and its
   * cost debited from its account, with a ledger entry and the spend of its key and account.
   */
  recordUsage(records: UsageRecord[]): Promise<void>;
  usageTotals(keyId: string, since?: number): Promise<UsageTotals>;
  usageWindow(keyId: string, since: number): Promise<UsageWindow>;

  /** Registers a client-chosen request id for a key; false when the key has used it before. */
  claimRequestId(keyId: string, requestId: string, at: number): Promise<boolean>;

  getCache(key: string, now: number): Promise<string | undefined>;
  setCache(key: string, value: string, expiresAt: number): Promise<void>;

  /**
   * Housekeeping: deletes the cache entries that expired by `now`, then the entries that expire
   * soonest until the cache holds at most `cacheMaxBytes` (of values), and the request ids claimed
   * before `requestIdsBefore`.
   */
  purge(options: PurgeOptions): Promise<PurgeResult>;

  /** Agent conversations (src/stores/conversations.ts). */
  readonly conversations: ConversationStore;
  /** Stored responses of the Responses API (src/stores/responses.ts). */
  readonly responses: ResponseStore;

  /**
   * The database as this store's own calls found it (up, down, full), for /health and /metrics.
   * A call that meets a fault rejects (StoreUnavailableError, or the driver's error that faults.ts
   * reads) promptly: after a bounded retry, never hanging.
   */
  readonly status: DependencyStatus;
  /** One round trip to the database (readiness); rejects with the fault when it cannot answer. */
  ping(): Promise<void>;

  close(): Promise<void>;
}

export interface PurgeOptions {
  now: number;
  cacheMaxBytes: number;
  requestIdsBefore: number;
}

/** Rows deleted by one `purge`. */
export interface PurgeResult {
  cacheEntries: number;
  requestIds: number;
}
