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
import type { PgQueryable } from './pg-db.js';

/** `store.accounts` on PostgreSQL (its tables come from migration 4). */
export class PostgresAccounts implements AccountStore {
  private readonly db: PgQueryable;

  constructor(db: PgQueryable) {
    this.db = db;
  }

  async createAccount(account: AccountRecord): Promise<void> {
    await this.db.query(
      'INSERT INTO accounts (id, name, email, password_hash, created_at, disabled_at) VALUES ($1, $2, $3, $4, $5, $6)',
      accountToParams(account),
    );
  }

  async getAccount(id: string): Promise<AccountRecord | undefined> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM accounts WHERE id = $1', [id]);
    return rows[0] && accountFromRow(rows[0]);
  }

  async findAccountByEmail(email: string): Promise<AccountRecord | undefined> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM accounts WHERE email = $1', [email]);
    return rows[0] && accountFromRow(rows[0]);
  }

  async listAccounts(): Promise<AccountRecord[]> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM accounts ORDER BY created_at, id');
    return rows.map(accountFromRow);
  }

  async setPasswordHash(id: string, passwordHash: string, keepSession = ''): Promise<boolean> {
    const { rows } = await this.db.query<{ n: number }>(
      `WITH u AS (UPDATE accounts SET password_hash = $1 WHERE id = $2 RETURNING id),
            s AS (DELETE FROM console_sessions WHERE account_id = $2 AND id_hash <> $3)
       SELECT COUNT(*)::int AS n FROM u`,
      [passwordHash, id, keepSession],
      { idempotent: true },
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  async upgradePasswordHash(id: string, previous: string, passwordHash: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE accounts SET password_hash = $1 WHERE id = $2 AND password_hash = $3',
      [passwordHash, id, previous],
      { idempotent: true },
    );
    return (rowCount ?? 0) > 0;
  }

  async disableAccount(id: string, at: number): Promise<boolean> {
    // One statement, so the account is disabled and its sessions ended together.
    const { rows } = await this.db.query<{ n: number }>(
      `WITH d AS (UPDATE accounts SET disabled_at = COALESCE(disabled_at, $1) WHERE id = $2 RETURNING id),
            s AS (DELETE FROM console_sessions WHERE account_id = $2)
       SELECT COUNT(*)::int AS n FROM d`,
      [at, id],
      { idempotent: true },
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  async createSession(session: SessionRecord): Promise<void> {
    await this.db.query(
      'INSERT INTO console_sessions (id_hash, account_id, admin_key_id, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)',
      sessionToParams(session),
    );
  }

  async getSession(idHash: string, now: number): Promise<SessionRecord | undefined> {
    const { rows } = await this.db.query<SessionRow>(
      'SELECT * FROM console_sessions WHERE id_hash = $1 AND expires_at > $2',
      [idHash, now],
    );
    return rows[0] && sessionFromRow(rows[0]);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash], { idempotent: true });
  }

  async deleteExpiredSessions(now: number): Promise<number> {
    const result = await this.db.query('DELETE FROM console_sessions WHERE expires_at <= $1', [now], {
      idempotent: true,
    });
    return result.rowCount ?? 0;
  }

  async accountPolicy(id: string): Promise<AccountPolicy | undefined> {
    const { rows } = await this.db.query<{ policy: AccountPolicy | null }>(
      'SELECT policy FROM accounts WHERE id = $1',
      [id],
    );
    return rows[0]?.policy ?? undefined;
  }

  async setAccountPolicy(id: string, policy: AccountPolicy | undefined): Promise<boolean> {
    const value = policy === undefined ? null : JSON.stringify(policy);
    const result = await this.db.query('UPDATE accounts SET policy = $1 WHERE id = $2', [value, id], {
      idempotent: true,
    });
    return (result.rowCount ?? 0) > 0;
  }

  async accountUsageWindow(accountId: string, since: number): Promise<UsageWindow> {
    // Each key of the account through usage_records (key_id, created_at): an index range per key.
    const { rows } = await this.db.query<{ count: string; oldest: string | number | null }>(
      `SELECT COUNT(*) AS count, MIN(u.created_at) AS oldest FROM key_owners o
       JOIN usage_records u ON u.key_id = o.key_id AND u.created_at >= $2 WHERE o.account_id = $1`,
      [accountId, since],
    );
    const oldest = rows[0]?.oldest;
    return {
      count: Number(rows[0]?.count ?? 0),
      oldest: oldest === null || oldest === undefined ? undefined : Number(oldest),
    };
  }

  async setKeyOwner(keyId: string, accountId: string): Promise<void> {
    await this.db.query(
      'INSERT INTO key_owners (key_id, account_id) VALUES ($1, $2) ON CONFLICT (key_id) DO UPDATE SET account_id = EXCLUDED.account_id',
      [keyId, accountId],
      { idempotent: true },
    );
  }

  async keyOwners(): Promise<Map<string, string>> {
    const { rows } = await this.db.query<{ key_id: string; account_id: string }>(
      'SELECT key_id, account_id FROM key_owners',
    );
    return new Map(rows.map((r) => [r.key_id, r.account_id]));
  }

  async keyOwner(keyId: string): Promise<string | undefined> {
    const { rows } = await this.db.query<{ account_id: string }>(
      'SELECT account_id FROM key_owners WHERE key_id = $1',
      [keyId],
    );
    return rows[0]?.account_id;
  }

  async lastUsed(keyIds: string[]): Promise<Map<string, number>> {
    if (keyIds.length === 0) return new Map();
    const { rows } = await this.db.query<{ key_id: string; at: number }>(
      'SELECT key_id, MAX(created_at) AS at FROM usage_records WHERE key_id = ANY($1::text[]) GROUP BY key_id',
      [keyIds],
    );
    return new Map(rows.map((r) => [r.key_id, Number(r.at)]));
  }

  async dailyUsage(keyIds: string[], since: number): Promise<DailyUsageRow[]> {
    if (keyIds.length === 0) return [];
    const { rows } = await this.db.query<DailyRow>(
      `SELECT created_at / 86400000 AS day, ${DAILY_COLUMNS} FROM usage_records
       WHERE key_id = ANY($1::text[]) AND created_at >= $2
       GROUP BY 1, key_id, COALESCE(model, '') ORDER BY 1, key_id, 3`,
      [keyIds, since],
    );
    return rows.map(dailyFromRow);
  }
}
