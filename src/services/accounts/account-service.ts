import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../errors/api-error.js';
import {
  authenticationFailed,
  forbidden,
  invalidRequest,
  keyRevoked,
  notFound,
  tooManyPerMinute,
} from '../../errors/errors.js';
import type { AccountRecord, SessionRecord } from '../../stores/accounts.js';
import type { Store } from '../../stores/types.js';
import { type Actor, ANONYMOUS, type AuditService, SYSTEM } from '../audit/audit-service.js';
import type { KeyService } from '../keys/key-service.js';
import { HashGate } from './hash-gate.js';
import { hashPassword, needsRehash, newPassword, verifyPassword } from './passwords.js';
import { actorId, type Principal, toAccountView } from './principal.js';
import { MemorySignInLimiter, type SignInAttempt, type SignInLimiter, type Subject } from './sign-in-limiter.js';

export interface AccountServiceOptions {
  store: Store;
  keys: KeyService;
  /** Where account changes and sign-ins are recorded. */
  audit: AuditService;
  sessionMs: number;
  /** Failed sign-ins per account and address before attempts slow down (`console.sign_in_attempts`). */
  signInAttempts: number;
  /** Where failures are counted; default in process, with a 60 s ceiling. */
  signInLimiter?: SignInLimiter;
  /** Password hashes at once and waiting (`console.hash_concurrency`, `console.hash_queue`). */
  hashGate?: HashGate;
  /** Whether an admin key is configured (its sessions carry the key id `admin`). */
  configuredAdmin?: boolean;
  /** The configured admin key itself: its sessions are bound to it and end when it is replaced. */
  configuredAdminKey?: string | undefined;
  now?: () => number;
}

export interface OpenSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  session: SessionRecord;
}

export interface ActiveSession {
  session: SessionRecord;
  principal: Principal;
}

const ADMIN: Principal = { kind: 'admin', keyId: 'admin' };

/** The check of an attempt; one that could not run (the hash gate full, the store down) is abandoned. */
async function checked<T>(attempt: SignInAttempt, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    await attempt.abandoned();
    throw err;
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Account holders and console sessions: sign-in by admin key or by email and password. */
export class AccountService {
  private readonly store: Store;
  private readonly keys: KeyService;
  private readonly audit: AuditService;
  private readonly sessionMs: number;
  private readonly limiter: SignInLimiter;
  private readonly gate: HashGate;
  private readonly attempts: number;
  private readonly configuredAdmin: boolean;
  /** What a session opened with the configured admin key stores: bound to that key, not its id. */
  private readonly adminSessionMark: string | undefined;
  private readonly now: () => number;
  // A stand-in hash checked when the email is unknown, so a miss takes as long as a wrong password.
  private decoy: Promise<string> | undefined;

  constructor(options: AccountServiceOptions) {
    this.store = options.store;
    this.keys = options.keys;
    this.audit = options.audit;
    this.sessionMs = options.sessionMs;
    this.now = options.now ?? Date.now;
    this.limiter = options.signInLimiter ?? new MemorySignInLimiter(60_000, this.now);
    this.gate = options.hashGate ?? new HashGate(2, 64);
    this.attempts = options.signInAttempts;
    this.configuredAdmin = options.configuredAdmin ?? false;
    this.adminSessionMark =
      options.configuredAdminKey === undefined
        ? undefined
        : `admin#${createHash('sha256').update('gen-platform admin session\0').update(options.configuredAdminKey).digest('base64url').slice(0, 22)}`;
  }

  /** Creates an account holder with an initial password, returned here only. */
  async createAccount(
    input: { name: string; email: string },
    actor: Actor = SYSTEM,
  ): Promise<{ account: AccountRecord; password: string }> {
    const email = input.email.trim().toLowerCase();
    if (await this.store.accounts.findAccountByEmail(email)) {
      throw invalidRequest(`Invalid email: an account with email ${email} already exists`);
    }
    const password = newPassword();
    const account: AccountRecord = {
      id: randomUUID().replaceAll('-', ''),
      name: input.name.trim(),
      email,
      passwordHash: await this.gate.run(() => hashPassword(password)),
      createdAt: this.now(),
      disabledAt: undefined,
    };
    await this.store.accounts.createAccount(account);
    await this.audit.record(actor, {
      action: 'account.create',
      target: `account:${account.id}`,
      after: toAccountView(account),
    });
    return { account, password };
  }

  listAccounts(): Promise<AccountRecord[]> {
    return this.store.accounts.listAccounts();
  }

  /** An account by id or email, for the CLI's and the admin API's `account`. */
  async findAccount(idOrEmail: string): Promise<AccountRecord | undefined> {
    return (
      (await this.store.accounts.getAccount(idOrEmail)) ??
      (await this.store.accounts.findAccountByEmail(idOrEmail.trim().toLowerCase()))
    );
  }

  /** Disables the account: its holder is signed out and cannot sign in, and its keys are revoked. */
  async disableAccount(id: string, actor: Actor): Promise<AccountRecord> {
    const before = await this.store.accounts.getAccount(id);
    if (!before || !(await this.store.accounts.disableAccount(id, this.now()))) {
      throw notFound(`Account ${id} does not exist`);
    }
    const owners = await this.store.accounts.keyOwners();
    const revoked: string[] = [];
    for (const [keyId, owner] of owners) {
      if (owner !== id) continue;
      const key = await this.keys.get(keyId);
      await this.keys.revoke(keyId);
      if (key && key.revokedAt === undefined) revoked.push(keyId);
    }
    const after = (await this.store.accounts.getAccount(id))!;
    if (before.disabledAt === undefined) {
      await this.audit.record(actor, {
        action: 'account.disable',
        target: `account:${id}`,
        before: toAccountView(before),
        after: { ...toAccountView(after), revoked_keys: revoked },
      });
    }
    return after;
  }

  /** An account holder replaces their password; their other sessions end. `address`: the client's. */
  async changePassword(active: ActiveSession, current: string, next: string, address?: string): Promise<void> {
    if (active.principal.kind !== 'account') throw forbidden('The admin signs in with the admin key, not a password');
    const { account } = active.principal;
    const subjects = [{ key: `account:${account.email}`, free: this.attempts }];
    const attempt = await this.beginAttempt(subjects);
    const actor = { id: actorId(active.principal), address };
    const target = `account:${account.id}`;
    if (!(await checked(attempt, () => this.gate.run(() => verifyPassword(current, account.passwordHash))))) {
      await attempt.failed();
      await this.audit.record(actor, { action: 'account.password_change_failed', target });
      throw invalidRequest("Invalid current_password: it is not the account's password");
    }
    await attempt.succeeded([]);
    const hash = await this.gate.run(() => hashPassword(next));
    await this.store.accounts.setPasswordHash(account.id, hash, active.session.idHash);
    // The hashes are not recorded, only that it changed and that other sessions ended.
    await this.audit.record(actor, {
      action: 'account.password_change',
      target,
      after: { other_sessions_ended: true },
    });
  }

  async signInAdmin(adminKey: string, client: string): Promise<OpenSession> {
    const subjects = [this.address(client)];
    const attempt = await this.beginAttempt(subjects);
    // A refused key is a failed sign-in; anything else (the store is down) is not the user's fault.
    // A signed token made from the admin key is refused: a console session would outlive its exp.
    const isToken = adminKey.split('.').length === 3;
    const key = await checked(attempt, () =>
      (isToken ? Promise.resolve(undefined) : this.keys.authenticate(`Bearer ${adminKey}`)).catch((err: unknown) => {
        if (err instanceof ApiError) return undefined;
        throw err;
      }),
    );
    if (key?.role !== 'admin') {
      await attempt.failed();
      // Never the key that was tried: it may be a real key mistyped, or another secret pasted.
      await this.audit.record(
        { id: key ? `key:${key.id}` : ANONYMOUS, address: client },
        {
          action: 'session.sign_in_failed',
          after: { method: 'admin_key', reason: key ? 'not an admin key' : isToken ? 'a signed token' : 'invalid key' },
        },
      );
      if (isToken)
        throw authenticationFailed('Sign-in failed: sign in with the admin key itself, not a signed token (JWT)');
      throw authenticationFailed('Sign-in failed: that is not an admin key');
    }
    await attempt.succeeded([]);
    // The configured admin key's session names the key it was opened with: a rotated key ends it.
    const opened = await this.openSession(
      undefined,
      key.id === 'admin' && this.adminSessionMark ? this.adminSessionMark : key.id,
    );
    await this.audit.record(
      { id: `key:${key.id}`, address: client },
      {
        action: 'session.sign_in',
        after: { method: 'admin_key', expires_at: new Date(opened.session.expiresAt).toISOString() },
      },
    );
    return opened;
  }

  /**
   * Counted per address, per account from every address, and per account and address: a guesser
   * is slowed down on each, the holder signing in from their own address only by the account's
   * count, which allows five times as many failures. Never a lockout (sign-in-limiter.ts).
   */
  async signInAccount(emailInput: string, password: string, client: string): Promise<OpenSession> {
    const email = emailInput.trim().toLowerCase();
    const account = { key: `account:${email}`, free: this.attempts * 5 };
    const pair = { key: `pair:${email}|${client}`, free: this.attempts };
    const subjects = [this.address(client), account, pair];
    // Counted before the hash: a burst of guesses for one account is refused here, not hashed.
    const attempt = await this.beginAttempt(subjects);
    const { found, stored, ok } = await checked(attempt, async () => {
      const found = await this.store.accounts.findAccountByEmail(email);
      const stored = found?.passwordHash ?? (await this.decoyHash());
      return { found, stored, ok: await this.gate.run(() => verifyPassword(password, stored)) };
    });
    if (!found || !ok) {
      await attempt.failed();
      await this.audit.record(
        { id: ANONYMOUS, address: client },
        {
          action: 'session.sign_in_failed',
          target: found ? `account:${found.id}` : `email:${email}`,
          after: { method: 'password', reason: found ? 'wrong password' : 'unknown email' },
        },
      );
      throw authenticationFailed('Sign-in failed: wrong email or password');
    }
    const actor = { id: `account:${found.id}`, address: client };
    if (found.disabledAt !== undefined) {
      await attempt.succeeded([]);
      await this.audit.record(actor, {
        action: 'session.sign_in_failed',
        target: `account:${found.id}`,
        after: { method: 'password', reason: 'account disabled' },
      });
      throw keyRevoked('Sign-in failed: this account is disabled');
    }
    await attempt.succeeded([account, pair]);
    if (needsRehash(stored)) await this.upgradeHash(found.id, stored, password);
    const opened = await this.openSession(found.id, undefined);
    await this.audit.record(actor, {
      action: 'session.sign_in',
      target: `account:${found.id}`,
      after: { method: 'password', expires_at: new Date(opened.session.expiresAt).toISOString() },
    });
    return opened;
  }

  /** A hash made with older parameters is replaced by one with today's, now that the password is known. */
  private async upgradeHash(id: string, stored: string, password: string): Promise<void> {
    const hash = await this.gate.run(() => hashPassword(password));
    await this.store.accounts.upgradePasswordHash(id, stored, hash);
  }

  /** The live session behind a cookie token, with whom it acts for; undefined when none. */
  async resume(token: string | undefined): Promise<ActiveSession | undefined> {
    if (!token) return undefined;
    const session = await this.store.accounts.getSession(hashToken(token), this.now());
    if (!session) return undefined;
    if (session.accountId === undefined) {
      const bound = session.adminKeyId?.startsWith('admin#') === true;
      if (bound) return session.adminKeyId === this.adminSessionMark ? { session, principal: ADMIN } : undefined;
      return (await this.adminKeyActive(session.adminKeyId))
        ? { session, principal: { kind: 'admin', keyId: session.adminKeyId } }
        : undefined;
    }
    const account = await this.store.accounts.getAccount(session.accountId);
    if (!account || account.disabledAt !== undefined) return undefined;
    return { session, principal: { kind: 'account', account } };
  }

  csrfMatches(session: SessionRecord, token: string | undefined): boolean {
    if (!token) return false;
    const a = Buffer.from(token);
    const b = Buffer.from(session.csrfToken);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async signOut(active: ActiveSession, address?: string): Promise<void> {
    await this.store.accounts.deleteSession(active.session.idHash);
    await this.audit.record({ id: actorId(active.principal), address }, { action: 'session.sign_out' });
  }

  /** The configured admin key (id `admin`) lasts as long as the configuration; a stored one until revoked. */
  private async adminKeyActive(id: string | undefined): Promise<boolean> {
    if (id === undefined) return false;
    // A session from before sessions were bound to the key: which key opened it is unknown.
    if (id === 'admin') return this.configuredAdmin && this.adminSessionMark === undefined;
    const key = await this.keys.get(id);
    return key?.role === 'admin' && key.revokedAt === undefined;
  }

  private decoyHash(): Promise<string> {
    if (!this.decoy) {
      const decoy = this.gate.run(() => hashPassword(newPassword()));
      // A refusal (the gate was full) is not kept: the next sign-in makes it.
      decoy.catch(() => {
        if (this.decoy === decoy) this.decoy = undefined;
      });
      this.decoy = decoy;
    }
    return this.decoy;
  }

  // An address may be shared (an office, a proxy), so it is allowed more failures than one account.
  private address(client: string): Subject {
    return { key: `ip:${client}`, free: this.attempts * 5 };
  }

  /**
   * The key of an `/admin` request, its failures counted per address as console sign-ins are:
   * past them, each further try waits (429, 1303), so keys cannot be guessed at full speed there.
   */
  async authenticateAdmin(header: string | undefined, client: string) {
    const attempt = await this.beginAttempt([{ key: `admin:${client}`, free: this.attempts * 5 }]);
    try {
      const key = await this.keys.authenticate(header, client);
      await attempt.succeeded([]);
      return key;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) await attempt.failed();
      else await attempt.abandoned();
      throw err;
    }
  }

  /** The attempt, counted on every subject; 1303 with the wait when one of them must wait. */
  private async beginAttempt(subjects: Subject[]): Promise<SignInAttempt> {
    const { wait, attempt } = await this.limiter.begin(subjects);
    if (attempt === undefined)
      throw tooManyPerMinute(`Too many failed sign-ins: try again in ${wait} seconds`, { retryAfter: wait });
    return attempt;
  }

  /** Stops the sign-in limiter (its Redis connection, when it has one). */
  close(): Promise<void> {
    return this.limiter.close();
  }

  private async openSession(accountId: string | undefined, adminKeyId: string | undefined): Promise<OpenSession> {
    const token = randomBytes(32).toString('base64url');
    const now = this.now();
    const session: SessionRecord = {
      idHash: hashToken(token),
      accountId,
      adminKeyId,
      csrfToken: randomBytes(24).toString('base64url'),
      createdAt: now,
      expiresAt: now + this.sessionMs,
    };
    await this.store.accounts.deleteExpiredSessions(now);
    await this.store.accounts.createSession(session);
    return { token, session };
  }
}
