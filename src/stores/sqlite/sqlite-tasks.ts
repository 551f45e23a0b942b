import type Database from 'better-sqlite3';
import {
  fullShare,
  type NewTask,
  type QueueAdmission,
  type QueueHeld,
  type QueueShare,
  type TaskClaim,
  type TaskError,
  type TaskRecord,
  type TaskRow,
  type TaskStore,
  taskFromRow,
} from '../tasks.js';

/** Kinds are few and fixed per worker; a JSON array keeps one prepared statement for any number. */
const KINDS = 'kind IN (SELECT value FROM json_each(?))';
const FREE = `status = 'PROCESSING' AND (lease_until IS NULL OR lease_until < ?)`;

/** Tasks in the SQLite file. One UPDATE ... RETURNING claims atomically (SQLite has one writer). */
export class SqliteTaskStore implements TaskStore {
  private readonly stmts;
  private readonly admit;

  constructor(db: Database.Database) {
    this.stmts = {
      insert: db.prepare(
        `INSERT INTO tasks (id, key_id, kind, model, request_id, input, status, attempts, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'PROCESSING', 0, ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM tasks WHERE id = ?'),
      // Fair across keys: the free task of the key with the fewest tasks running goes first, then
      // the oldest, so that one key's backlog does not hold up another key's task.
      claim: db.prepare(
        `UPDATE tasks SET lease_owner = @owner, lease_until = @until, attempts = attempts + 1, updated_at = @now
         WHERE id = (
           SELECT t.id FROM tasks t
           LEFT JOIN (SELECT key_id, COUNT(*) AS n FROM tasks
                      WHERE status = 'PROCESSING' AND lease_until >= @now AND kind IN (SELECT value FROM json_each(@kinds))
                      GROUP BY key_id) running ON running.key_id = t.key_id
           WHERE t.status = 'PROCESSING' AND (t.lease_until IS NULL OR t.lease_until < @now)
             AND t.kind IN (SELECT value FROM json_each(@kinds))
           ORDER BY COALESCE(running.n, 0), t.created_at, t.id LIMIT 1)
         RETURNING *`,
      ),
      heartbeat: db.prepare(
        `UPDATE tasks SET lease_until = ? WHERE id = ? AND lease_owner = ? AND status = 'PROCESSING'`,
      ),
      finish: db.prepare(
        `UPDATE tasks SET status = ?, result = ?, error_code = ?, error_message = ?, lease_until = NULL, updated_at = ?
         WHERE id = ? AND lease_owner = ? AND status = 'PROCESSING'`,
      ),
      release: db.prepare(
        `UPDATE tasks SET lease_owner = NULL, lease_until = NULL, attempts = attempts - 1, updated_at = ?
         WHERE id = ? AND lease_owner = ? AND status = 'PROCESSING'`,
      ),
      deleteEnded: db.prepare(`DELETE FROM tasks WHERE status <> 'PROCESSING' AND updated_at < ?`),
      waiting: db.prepare(`SELECT COUNT(*) FROM tasks WHERE ${FREE} AND ${KINDS}`).pluck(),
      shares: db.prepare(
        `SELECT COUNT(*) AS queue,
           COALESCE(SUM(key_id = @key), 0) AS key,
           COALESCE(SUM(key_id IN (SELECT key_id FROM key_owners WHERE account_id = @account)), 0) AS account
         FROM tasks WHERE status = 'PROCESSING' AND (lease_until IS NULL OR lease_until < @now) AND kind = @kind`,
      ),
    };
    // IMMEDIATE takes the write lock before counting: another connection (process) cannot insert
    // between this one's count and its insert.
    const admit = db.transaction((t: NewTask, share: QueueShare): QueueAdmission => {
      const verdict = fullShare(this.held(t.kind, t.keyId, share.accountId, t.createdAt), share);
      if (verdict.admitted) this.insertRow(t);
      return verdict;
    });
    this.admit = (t: NewTask, share: QueueShare) => admit.immediate(t, share);
  }

  private insertRow(t: NewTask): void {
    this.stmts.insert.run(t.id, t.keyId, t.kind, t.model, t.requestId, t.input, t.createdAt, t.createdAt);
  }

  private held(kind: string, keyId: string, accountId: string | undefined, now: number): QueueHeld {
    // An account id never matches a key owner row when absent: '' is no account's id.
    const row = this.stmts.shares.get({ kind, key: keyId, account: accountId ?? '', now }) as QueueHeld;
    return { queue: Number(row.queue), key: Number(row.key), account: Number(row.account) };
  }

  async waitingShares(kind: string, keyId: string, accountId: string | undefined, now: number): Promise<QueueHeld> {
    return this.held(kind, keyId, accountId, now);
  }

  async createWithin(task: NewTask, share: QueueShare): Promise<QueueAdmission> {
    return this.admit(task, share);
  }

  async create(t: NewTask): Promise<void> {
    this.insertRow(t);
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const row = this.stmts.get.get(id) as TaskRow | undefined;
    return row && taskFromRow(row);
  }

  async claim(c: TaskClaim): Promise<TaskRecord | undefined> {
    const row = this.stmts.claim.get({
      owner: c.owner,
      until: c.now + c.leaseMs,
      now: c.now,
      kinds: JSON.stringify(c.kinds),
    }) as TaskRow | undefined;
    return row && taskFromRow(row);
  }

  async heartbeat(id: string, owner: string, leaseUntil: number): Promise<boolean> {
    return this.stmts.heartbeat.run(leaseUntil, id, owner).changes > 0;
  }

  async complete(id: string, owner: string, result: string, now: number): Promise<boolean> {
    return this.stmts.finish.run('SUCCESS', result, null, null, now, id, owner).changes > 0;
  }

  async fail(id: string, owner: string, error: TaskError, now: number): Promise<boolean> {
    return this.stmts.finish.run('FAIL', null, error.code, error.message, now, id, owner).changes > 0;
  }

  async release(id: string, owner: string, now: number): Promise<boolean> {
    return this.stmts.release.run(now, id, owner).changes > 0;
  }

  async deleteEndedBefore(before: number): Promise<number> {
    return this.stmts.deleteEnded.run(before).changes;
  }

  async countWaiting(kinds: readonly string[], now: number): Promise<number> {
    return this.stmts.waiting.get(now, JSON.stringify(kinds)) as number;
  }
}
