import type Database from 'better-sqlite3';
import {
  type AccountRow,
  accountFromRow,
  accountToParams,
  DAILY_COLUMNS,
  type DailyRow,
  dailyFromRow,
  type SessionRow,
  sessionFromRow,
  sessionToParams,
} from '../account-rows.js';
import type { AccountPolicy, AccountRecord, AccountStore, DailyUsageRow, SessionRecord } from '../accounts.js';
import type { UsageWindow } from '../types.js';

/** `store.accounts` on the SQLite file (its tables come from migration 4). */
export class SqliteAccounts implements AccountStore {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(db: Database.Database) {
    this.db = db;
    this.stmts = {
      insertAccount: db.prepare(
        'INSERT INTO accounts (id, name, email, password_hash, created_at, disabled_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      getAccount: db.prepare('SELECT * FROM accounts WHERE id = ?'),
      byEmail: db.prepare('SELECT * FROM accounts WHERE email = ?'),
      listAccounts: db.prepare('SELECT * FROM accounts ORDER BY created_at, id'),
      disable: db.prepare('UPDATE accounts SET disabled_at = COALESCE(disabled_at, ?) WHERE id = ?'),
      endSessions: db.prepare('DELETE FROM console_sessions WHERE account_id = ?'),
      setPassword: db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ?'),
      upgradePassword: db.prepare('UPDATE accounts SET password_hash = ? WHERE id = ? AND password_hash = ?'),
      endOtherSessions: db.prepare('DELETE FROM console_sessions WHERE account_id = ? AND id_hash <> ?'),
      insertSession: db.prepare(
        'INSERT INTO console_sessions (id_hash, account_id, admin_key_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      getSession: db.prepare('SELECT * FROM console_sessions WHERE id_hash = ? AND expires_at > ?'),
      deleteSession: db.prepare('DELETE FROM console_sessions WHERE id_hash = ?'),
      deleteExpired: db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?'),
      setOwner: db.prepare(
        'INSERT INTO key_owners (key_id, account_id) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET account_id = excluded.account_id',
      ),
      owners: db.prepare('SELECT key_id, account_id FROM key_owners'),
      owner: db.prepare('SELECT account_id FROM key_owners WHERE key_id = ?').pluck(),
      // Each key of the account through usage_records (key_id, created_at): an index range per key.
      window: db.prepare(
        `SELECT COUNT(*) AS count, MIN(u.created_at) AS oldest FROM key_owners o
         JOIN usage_records u ON u.key_id = o.key_id AND u.created_at >= ? WHERE o.account_id = ?`,
      ),
    };
  }

  async createAccount(account: AccountRecord): Promise<void> {
    this.stmts.insertAccount.run(...accountToParams(account));
  }

  async getAccount(id: string): Promise<AccountRecord | undefined> {
    const row = this.stmts.getAccount.get(id) as AccountRow | undefined;
    return row && accountFromRow(row);
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | undefined> {
    const row = this.stmts.byEmail.get(email) as AccountRow | undefined;
    return row && accountFromRow(row);
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return (this.stmts.listAccounts.all() as AccountRow[]).map(accountFromRow);
  }

  async setPasswordHash(id: string, passwordHash: string, keepSession = ''): Promise<boolean> {
    return this.db.transaction(() => {
      const changed = this.stmts.setPassword.run(passwordHash, id).changes > 0;
      this.stmts.endOtherSessions.run(id, keepSession);
      return changed;
    })();
  }

  async upgradePasswordHash(id: string, previous: string, passwordHash: string): Promise<boolean> {
    return this.stmts.upgradePassword.run(passwordHash, id, previous).changes > 0;
  }

  async disableAccount(id: string, at: number): Promise<boolean> {
    return this.db.transaction(() => {
      const changed = this.stmts.disable.run(at, id).changes > 0;
      this.stmts.endSessions.run(id);
      return changed;
    })();
  }

  async createSession(session: SessionRecord): Promise<void> {
    this.stmts.insertSession.run(...sessionToParams(session));
  }

  async getSession(idHash: string, now: number): Promise<SessionRecord | undefined> {
    const row = this.stmts.getSession.get(idHash, now) as SessionRow | undefined;
    return row && sessionFromRow(row);
  }

  async deleteSession(idHash: string): Promise<void> {
    this.stmts.deleteSession.run(idHash);
  }

  async deleteExpiredSessions(now: number): Promise<number> {
    return this.stmts.deleteExpired.run(now).changes;
  }

  async accountPolicy(id: string): Promise<AccountPolicy | undefined> {
    const value = this.db.prepare('SELECT policy FROM accounts WHERE id = ?').pluck().get(id) as
      | string
      | null
      | undefined;
    return value ? (JSON.parse(value) as AccountPolicy) : undefined;
  }

  async setAccountPolicy(id: string, policy: AccountPolicy | undefined): Promise<boolean> {
    const value = policy === undefined ? null : JSON.stringify(policy);
    return this.db.prepare('UPDATE accounts SET policy = ? WHERE id = ?').run(value, id).changes > 0;
  }

  async accountUsageWindow(accountId: string, since: number): Promise<UsageWindow> {
    const row = this.stmts.window.get(since, accountId) as { count: number; oldest: number | null };
    return { count: row.count, oldest: row.oldest ?? undefined };
  }

  async setKeyOwner(keyId: string, accountId: string): Promise<void> {
    this.stmts.setOwner.run(keyId, accountId);
  }

  async keyOwners(): Promise<Map<string, string>> {
    const rows = this.stmts.owners.all() as { key_id: string; account_id: string }[];
    return new Map(rows.map((r) => [r.key_id, r.account_id]));
  }

  async keyOwner(keyId: string): Promise<string | undefined> {
    return this.stmts.owner.get(keyId) as string | undefined;
  }

  async lastUsed(keyIds: string[]): Promise<Map<string, number>> {
    if (keyIds.length === 0) return new Map();
    const rows = this.db
      .prepare(
        `SELECT key_id, MAX(created_at) AS at FROM usage_records WHERE key_id IN (SELECT value FROM json_each(?)) GROUP BY key_id`,
      )
      .all(JSON.stringify(keyIds)) as { key_id: string; at: number }[];
    return new Map(rows.map((r) => [r.key_id, r.at]));
  }

  async dailyUsage(keyIds: string[], since: number): Promise<DailyUsageRow[]> {
    if (keyIds.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT created_at / 86400000 AS day, ${DAILY_COLUMNS} FROM usage_records
         WHERE key_id IN (SELECT value FROM json_each(?)) AND created_at >= ?
         GROUP BY day, key_id, COALESCE(model, '') ORDER BY day, key_id, 3`,
      )
      .all(JSON.stringify(keyIds), since) as DailyRow[];
    return rows.map(dailyFromRow);
  }
}
