import { statfsSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { Calendar } from '../../util/calendar.js';
import { openSqliteFile } from '../../util/sqlite/driver.js';
import { DependencyStatus } from '../dependency-status.js';
import { StoreUnavailableError } from '../faults.js';
import {
  EMPTY_KEY,
  type KeyRow,
  keyFromRow,
  keyToParams,
  totalsFromRows,
  USAGE_TOTALS_SELECT,
  type UsageTotalsRow,
} from '../rows.js';
import type {
  KeyRecord,
  KeySettings,
  PreviousSecret,
  PurgeOptions,
  PurgeResult,
  Store,
  UsageRecord,
  UsageTotals,
  UsageWindow,
} from '../types.js';
import { SqliteConversations } from './conversations.js';
import { SQLITE_MIGRATIONS } from './migrations.js';
import { OtherCommits } from './other-commits.js';
import { SqliteResponses } from './responses.js';
import { SqliteAccounts } from './sqlite-accounts.js';
import { SqliteAudit } from './sqlite-audit.js';
import { SqliteMoney } from './sqlite-money.js';
import { SqliteTaskStore } from './sqlite-tasks.js';
import { watchWrites } from './watch-writes.js';

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
  // BEGIN IMMEDIATE: two processes starting on one file must not both apply a migration.
  const apply = db.transaction(() => {
    // Each version by itself, not "above the highest": a version merged in late still gets applied.
    const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
    for (const migration of SQLITE_MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        migration.version,
        Date.now(),
      );
    }
  });
  apply.immediate();
}

/** Less free space than this on the database's filesystem counts as still full. */
const MIN_FREE_BYTES = 1 << 20;

/** Why the database still cannot grow, or undefined when it can. */
function roomProblem(db: Database.Database, file: string): string | undefined {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const max = db.pragma('max_page_count', { simple: true }) as number;
  if (pages >= max) return `the database is at max_page_count (${max} pages)`;
  if (file === ':memory:' || file === '') return undefined;
  const fs = statfsSync(path.dirname(file));
  if (fs.bavail * fs.bsize < MIN_FREE_BYTES) return `less than 1 MB free on ${path.dirname(file)}`;
  return undefined;
}

/** The embedded default store: one SQLite file, WAL mode so that CLI commands and the server share it. */
export class SqliteStore implements Store {
  readonly db: Database.Database;
  readonly accounts: SqliteAccounts;
  readonly tasks: SqliteTaskStore;
  readonly conversations: SqliteConversations;
  readonly audit: SqliteAudit;
  readonly money: SqliteMoney;
  readonly responses: SqliteResponses;
  /** Down or full as the last write found it (a full disk: SQLITE_FULL); reads keep working. */
  readonly status = new DependencyStatus('database', 'sqlite');
  private readonly stmts;
  /**
   * Key rows read on every request, kept until any other connection commits (other-commits.ts), so
   * a revocation from the CLI or another process is seen at once by any request that comes a
   * millisecond later.
   */
  private readonly keyCache = new Map<string, KeyRecord | undefined>();
  private keyCacheVersion = -1;
  private readonly otherCommits: OtherCommits;

  constructor(
    private readonly file: string,
    /**
     * `billing.time_zone`: the calendar of per-day and per-month spend; `billing.require_balance`:
     * a call settled late is billed only as far as the balance covers it (stores/settlement.ts).
     */
    options: { timeZone?: string; requireBalance?: boolean } = {},
  ) {
    this.db = openSqliteFile(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('synchronous = NORMAL');
    watchWrites(this.db, this.status);
    migrate(this.db);
    this.accounts = new SqliteAccounts(this.db);
    this.tasks = new SqliteTaskStore(this.db);
    this.conversations = new SqliteConversations(this.db);
    this.audit = new SqliteAudit(this.db);
    this.otherCommits = new OtherCommits(this.db);
    this.money = new SqliteMoney(
      this.db,
      new Calendar(options.timeZone ?? 'UTC'),
      options.requireBalance ?? true,
      this.otherCommits,
    );
    this.responses = new SqliteResponses(this.db);
    const db = this.db;
    this.stmts = {
      insertKey: db.prepare(
        `INSERT INTO api_keys (id, name, secret_hash, secret_encrypted, endpoints, role, limits, created_at, revoked_at, policy, previous_secret)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      getKey: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      heldKeys: db
        .prepare(
          'SELECT COUNT(*) FROM key_owners o JOIN api_keys k ON k.id = o.key_id WHERE o.account_id = ? AND k.revoked_at IS NULL',
        )
        .pluck(),
      insertOwner: db.prepare(
        'INSERT INTO key_owners (key_id, account_id) VALUES (?, ?) ON CONFLICT (key_id) DO UPDATE SET account_id = excluded.account_id',
      ),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      listKeys: db.prepare('SELECT * FROM api_keys ORDER BY created_at, id'),
      revokeKey: db.prepare('UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?'),
      updateKey: db.prepare('UPDATE api_keys SET name = ?, endpoints = ?, limits = ?, policy = ? WHERE id = ?'),
      rollKey: db.prepare(
        'UPDATE api_keys SET secret_hash = ?, secret_encrypted = ?, previous_secret = ? WHERE id = ?',
      ),
      insertUsage: db.prepare(
        `INSERT INTO usage_records (key_id, operation, model, request_id, prompt_tokens, completion_tokens, status, latency_ms, created_at, journal_id, cost, cached_tokens)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (journal_id) DO NOTHING`,
      ),
      totals: db.prepare(`${USAGE_TOTALS_SELECT} WHERE key_id = ? AND created_at >= ? GROUP BY operation`),
      window: db.prepare(
        'SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM usage_records WHERE key_id = ? AND created_at >= ?',
      ),
      claim: db.prepare('INSERT OR IGNORE INTO request_ids (key_id, request_id, created_at) VALUES (?, ?, ?)'),
      getCache: db.prepare('SELECT value FROM cache_entries WHERE key = ? AND expires_at > ?'),
      purgeExpired: db.prepare('DELETE FROM cache_entries WHERE expires_at <= ?'),
      // Keeps the entries that expire last while their running total fits the cap.
      purgeOverCap: db.prepare(
        `DELETE FROM cache_entries WHERE key IN (
           SELECT key FROM (
             SELECT key, SUM(length(CAST(value AS BLOB))) OVER (ORDER BY expires_at DESC, key) AS kept
             FROM cache_entries
           ) WHERE kept > ?
         )`,
      ),
      purgeRequestIds: db.prepare('DELETE FROM request_ids WHERE created_at < ?'),
      setCache: db.prepare(
        'INSERT INTO cache_entries (key, value, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at',
      ),
    };
  }

  async createKey(key: KeyRecord): Promise<void> {
    this.stmts.insertKey.run(...keyToParams(key));
    this.keyCache.delete(key.id);
  }

  async createHeldKey(key: KeyRecord, accountId: string, maxKeys: number): Promise<boolean> {
    // IMMEDIATE takes the write lock before counting: another process's creation waits for it.
    const made = this.db
      .transaction((): boolean => {
        if (maxKeys > 0 && (this.stmts.heldKeys.get(accountId) as number) >= maxKeys) return false;
        this.stmts.insertKey.run(...keyToParams(key));
        this.stmts.insertOwner.run(key.id, accountId);
        return true;
      })
      .immediate();
    this.keyCache.delete(key.id);
    return made;
  }

  async getKey(id: string): Promise<KeyRecord | undefined> {
    const version = this.otherCommits.version();
    if (version !== this.keyCacheVersion) {
      this.keyCache.clear();
      this.keyCacheVersion = version;
    }
    if (this.keyCache.has(id)) return this.keyCache.get(id);
    const row = this.stmts.getKey.get(id) as KeyRow | undefined;
    const key = row && keyFromRow(row);
    // Bounded: unknown ids (guessed keys) are not remembered, so they cannot grow the cache.
    if (key && this.keyCache.size < 10_000) this.keyCache.set(id, key);
    return key;
  }

  async listKeys(): Promise<KeyRecord[]> {
    return (this.stmts.listKeys.all() as KeyRow[]).map(keyFromRow);
  }

  async revokeKey(id: string, at: number): Promise<boolean> {
    this.keyCache.delete(id);
    return this.stmts.revokeKey.run(at, id).changes > 0;
  }

  async updateKey(id: string, settings: KeySettings): Promise<boolean> {
    this.keyCache.delete(id);
    const [, name, , , endpoints, , limits, , , policy] = keyToParams({ ...EMPTY_KEY, ...settings });
    return this.stmts.updateKey.run(name, endpoints, limits, policy, id).changes > 0;
  }

  async rollKey(
    id: string,
    secret: { secretHash: string; secretEncrypted: string },
    previous: PreviousSecret | undefined,
  ): Promise<boolean> {
    this.keyCache.delete(id);
    const prior = previous === undefined ? null : JSON.stringify(previous);
    return this.stmts.rollKey.run(secret.secretHash, secret.secretEncrypted, prior, id).changes > 0;
  }

  async recordUsage(records: UsageRecord[]): Promise<void> {
    this.insertUsage(records);
  }

  /** One transaction: the records, and the money of those it wrote (a record stored before is skipped). */
  private readonly insertUsage = (records: UsageRecord[]) => {
    const released = this.db.transaction(() => {
      const written: UsageRecord[] = [];
      const rowids: number[] = [];
      for (const r of records) {
        const { changes, lastInsertRowid } = this.stmts.insertUsage.run(
          r.keyId,
          r.operation,
          r.model ?? null,
          r.requestId ?? null,
          r.promptTokens,
          r.completionTokens,
          r.status,
          r.latencyMs,
          r.createdAt,
          r.journalId ?? null,
          r.cost ?? 0,
          r.cachedTokens ?? 0,
        );
        if (changes > 0) {
          written.push(r);
          rowids.push(Number(lastInsertRowid));
        }
      }
      return this.money.settle(written, rowids);
    })();
    released();
  };

  async usageTotals(keyId: string, since = 0): Promise<UsageTotals> {
    return totalsFromRows(this.stmts.totals.all(keyId, since) as UsageTotalsRow[]);
  }

  async usageWindow(keyId: string, since: number): Promise<UsageWindow> {
    const row = this.stmts.window.get(keyId, since) as { count: number; oldest: number | null };
    return { count: row.count, oldest: row.oldest ?? undefined };
  }

  async claimRequestId(keyId: string, requestId: string, at: number): Promise<boolean> {
    return this.stmts.claim.run(keyId, requestId, at).changes > 0;
  }

  async getCache(key: string, now: number): Promise<string | undefined> {
    const row = this.stmts.getCache.get(key, now) as { value: string } | undefined;
    return row?.value;
  }

  async setCache(key: string, value: string, expiresAt: number): Promise<void> {
    this.stmts.setCache.run(key, value, expiresAt);
  }

  async purge(options: PurgeOptions): Promise<PurgeResult> {
    const expired = this.stmts.purgeExpired.run(options.now).changes;
    const overCap = this.stmts.purgeOverCap.run(options.cacheMaxBytes).changes;
    const requestIds = this.stmts.purgeRequestIds.run(options.requestIdsBefore).changes;
    return { cacheEntries: expired + overCap, requestIds };
  }

  /**
   * Readiness: a read answers (SQLite is in-process: only its file can fail), and after a full disk,
   * whether there is room again (free space on the filesystem, pages below max_page_count).
   */
  async ping(): Promise<void> {
    this.stmts.dataVersion.get();
    if (this.status.current.state !== 'full') return;
    const problem = roomProblem(this.db, this.file);
    if (problem) throw new StoreUnavailableError({ kind: 'full', cause: problem, notRun: true });
    this.status.succeeded(true);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
