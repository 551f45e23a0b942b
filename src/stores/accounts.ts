/**
 * The console's part of the store seam (`store.accounts`): account holders, their sign-in sessions,
 * which account holds which key, and the usage figures the console draws. Every implementation
 * passes test/contracts/account-store.contract.ts. Times are Unix milliseconds.
 */
import type { UsageWindow } from './usage-window.js';

export interface AccountRecord {
  id: string;
  name: string;
  /** Lower-cased; unique. */
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64url parts). */
  passwordHash: string;
  createdAt: number;
  disabledAt: number | undefined;
}

/** An account's own limits, model allowlist and key cap; a field left out is the configured default. */
export interface AccountPolicy {
  concurrent?: number | undefined;
  requestsPerMinute?: number | undefined;
  /** Model codes or patterns every key of the account is held to; absent or empty = every model. */
  models?: string[] | undefined;
  maxKeys?: number | undefined;
  /** Usage windows every key of the account counts towards together. */
  windows?: { requests: number; hours: number }[] | undefined;
}

export interface SessionRecord {
  /** SHA-256 of the cookie's token, hex: a leaked table does not give sessions away. */
  idHash: string;
  /** undefined = the admin's session. */
  accountId: string | undefined;
  /** For the admin's session, the admin key it was opened with: revoking that key ends it. */
  adminKeyId: string | undefined;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

/** Requests and tokens of one key and model on one UTC day. */
export interface DailyUsageRow {
  /** The day's start, Unix ms (UTC). */
  day: number;
  keyId: string;
  /** '' when the request named no model (reader, web search). */
  model: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
  /** What the calls cost, in minor units (src/stores/money.ts). */
  cost: number;
}

export interface AccountStore {
  createAccount(account: AccountRecord): Promise<void>;
  getAccount(id: string): Promise<AccountRecord | undefined>;
  findAccountByEmail(email: string): Promise<AccountRecord | undefined>;
  listAccounts(): Promise<AccountRecord[]>;
  /** Replaces the password hash and ends the account's sessions except `keepSession`; false when no such account. */
  setPasswordHash(id: string, passwordHash: string, keepSession?: string): Promise<boolean>;
  /**
   * Replaces the hash of the same password made with older parameters, sessions untouched; only
   * while the stored hash is still `previous` (a password changed meanwhile wins). False otherwise.
   */
  upgradePasswordHash(id: string, previous: string, passwordHash: string): Promise<boolean>;
  /** Marks the account disabled and ends its sessions; false when no such account. */
  disableAccount(id: string, at: number): Promise<boolean>;

  createSession(session: SessionRecord): Promise<void>;
  /** The session if it exists and has not expired at `now`. */
  getSession(idHash: string, now: number): Promise<SessionRecord | undefined>;
  deleteSession(idHash: string): Promise<void>;
  /** Drops expired sessions; returns how many. */
  deleteExpiredSessions(now: number): Promise<number>;

  /** Records that `accountId` holds key `keyId`; a key without an owner belongs to the admin. */
  setKeyOwner(keyId: string, accountId: string): Promise<void>;
  /** Owner of each key that has one, by key id. */
  keyOwners(): Promise<Map<string, string>>;
  /** The owner of one key; undefined for the admin's keys (and unknown ones). */
  keyOwner(keyId: string): Promise<string | undefined>;

  /** The account's own policy; undefined when it has none (or there is no such account). */
  accountPolicy(id: string): Promise<AccountPolicy | undefined>;
  /** Replaces the account's policy (undefined: back to the defaults); false when no such account. */
  setAccountPolicy(id: string, policy: AccountPolicy | undefined): Promise<boolean>;
  /** Requests since a time of every key the account holds or ever held (its usage windows). */
  accountUsageWindow(accountId: string, since: number): Promise<UsageWindow>;

  /** Time of each key's latest request, by key id (keys never used are absent). */
  lastUsed(keyIds: string[]): Promise<Map<string, number>>;
  /** Per UTC day, key and model, from `since` on, ordered by day, key, model. */
  dailyUsage(keyIds: string[], since: number): Promise<DailyUsageRow[]>;
}
