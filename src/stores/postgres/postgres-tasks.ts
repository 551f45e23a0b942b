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
import type { PgDb } from './pg-db.js';
import { inTransaction } from './pg-transaction.js';

const INSERT = `INSERT INTO tasks (id, key_id, kind, model, request_id, input, status, attempts, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, 'PROCESSING', 0, $7, $7)`;
const insertParams = (t: NewTask) => [t.id, t.keyId, t.kind, t.model, t.requestId, t.input, t.createdAt];
const SHARES = `SELECT COUNT(*) AS queue,
    COUNT(*) FILTER (WHERE key_id = $3) AS key,
    COUNT(*) FILTER (WHERE key_id IN (SELECT key_id FROM key_owners WHERE account_id = $4)) AS account
  FROM tasks WHERE status = 'PROCESSING' AND (lease_until IS NULL OR lease_until < $1) AND kind = $2`;
type SharesRow = { queue: string; key: string; account: string };
const heldOf = (row: SharesRow | undefined): QueueHeld => ({
  queue: Number(row?.queue ?? 0),
  key: Number(row?.key ?? 0),
  account: Number(row?.account ?? 0),
});

const FREE = `status = 'PROCESSING' AND (lease_until IS NULL OR lease_until < $1) AND kind = ANY($2::text[])`;

/**
 * Tasks in PostgreSQL, shared by every server process: a claim locks the row it takes with
 * `FOR UPDATE SKIP LOCKED`, so concurrent claimers pass over each other's rows instead of waiting
 * or taking the same one.
 */
export class PostgresTaskStore implements TaskStore {
  constructor(private readonly db: PgDb) {}

  async create(t: NewTask): Promise<void> {
    await this.db.query(INSERT, insertParams(t));
  }

  async waitingShares(kind: string, keyId: string, accountId: string | undefined, now: number): Promise<QueueHeld> {
    const { rows } = await this.db.query<SharesRow>(SHARES, [now, kind, keyId, accountId ?? '']);
    return heldOf(rows[0]);
  }

  async createWithin(t: NewTask, share: QueueShare): Promise<QueueAdmission> {
    // One lock per kind, held to the end of the transaction: concurrent admissions from every
    // process count and insert one after another (READ COMMITTED alone would let two count the
    // same free place). The transaction is short: three counts on the open tasks and an insert.
    return inTransaction(
      this.db,
      async (client): Promise<QueueAdmission> => {
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`tasks.admit:${t.kind}`]);
        const { rows } = await client.query<SharesRow>(SHARES, [t.createdAt, t.kind, t.keyId, share.accountId ?? '']);
        const verdict = fullShare(heldOf(rows[0]), share);
        if (verdict.admitted) await client.query(INSERT, insertParams(t));
        return verdict;
      },
      { idempotent: false },
    );
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const { rows } = await this.db.query<TaskRow>('SELECT * FROM tasks WHERE id = $1', [id]);
    return rows[0] && taskFromRow(rows[0]);
  }

  async claim(c: TaskClaim): Promise<TaskRecord | undefined> {
    // Fair across keys: the free task of the key with the fewest tasks running goes first, then
    // the oldest, so that one key's backlog does not hold up another key's task.
    const { rows } = await this.db.query<TaskRow>(
      `UPDATE tasks SET lease_owner = $3, lease_until = $4, attempts = attempts + 1, updated_at = $1
       WHERE id = (
         SELECT t.id FROM tasks t
         LEFT JOIN (SELECT key_id, COUNT(*) AS n FROM tasks
                    WHERE status = 'PROCESSING' AND lease_until >= $1 AND kind = ANY($2::text[])
                    GROUP BY key_id) running ON running.key_id = t.key_id
         WHERE t.status = 'PROCESSING' AND (t.lease_until IS NULL OR t.lease_until < $1) AND t.kind = ANY($2::text[])
         ORDER BY COALESCE(running.n, 0), t.created_at, t.id LIMIT 1 FOR UPDATE OF t SKIP LOCKED)
       RETURNING *`,
      [c.now, c.kinds, c.owner, c.now + c.leaseMs],
    );
    return rows[0] && taskFromRow(rows[0]);
  }

  async heartbeat(id: string, owner: string, leaseUntil: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE tasks SET lease_until = $1 WHERE id = $2 AND lease_owner = $3 AND status = 'PROCESSING'`,
      [leaseUntil, id, owner],
      { idempotent: true },
    );
    return (result.rowCount ?? 0) > 0;
  }

  async complete(id: string, owner: string, result: string, now: number): Promise<boolean> {
    return this.finish(id, owner, now, 'SUCCESS', result, undefined);
  }

  async fail(id: string, owner: string, error: TaskError, now: number): Promise<boolean> {
    return this.finish(id, owner, now, 'FAIL', null, error);
  }

  async release(id: string, owner: string, now: number): Promise<boolean> {
    const result = await this.db.query(
      `UPDATE tasks SET lease_owner = NULL, lease_until = NULL, attempts = attempts - 1, updated_at = $1
       WHERE id = $2 AND lease_owner = $3 AND status = 'PROCESSING'`,
      [now, id, owner],
      // A second run finds the lease gone and changes nothing (it reports false).
      { idempotent: true },
    );
    return (result.rowCount ?? 0) > 0;
  }

  async deleteEndedBefore(before: number): Promise<number> {
    const result = await this.db.query(`DELETE FROM tasks WHERE status <> 'PROCESSING' AND updated_at < $1`, [before], {
      idempotent: true,
    });
    return result.rowCount ?? 0;
  }

  async countWaiting(kinds: readonly string[], now: number): Promise<number> {
    const { rows } = await this.db.query<{ n: string }>(`SELECT COUNT(*) AS n FROM tasks WHERE ${FREE}`, [now, kinds]);
    return Number(rows[0]?.n ?? 0);
  }

  private async finish(
    id: string,
    owner: string,
    now: number,
    status: 'SUCCESS' | 'FAIL',
    result: string | null,
    error: TaskError | undefined,
  ): Promise<boolean> {
    const res = await this.db.query(
      `UPDATE tasks SET status = $1, result = $2, error_code = $3, error_message = $4, lease_until = NULL, updated_at = $5
       WHERE id = $6 AND lease_owner = $7 AND status = 'PROCESSING'`,
      [status, result, error?.code ?? null, error?.message ?? null, now, id, owner],
      // Guarded by the lease and PROCESSING: a second run after a first that committed changes nothing.
      { idempotent: true },
    );
    return (res.rowCount ?? 0) > 0;
  }
}
