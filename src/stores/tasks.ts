/**
 * The task queue seam (docs/architecture.md, "Seams"): asynchronous tasks as leased rows. A task is written before
 * its handle is returned; workers claim it with a lease that they renew; a lease that runs out
 * (the worker died) lets another worker claim it again. PROCESSING ends in SUCCESS or FAIL exactly
 * once. Every implementation passes test/contracts/task-store.contract.ts. Times are Unix ms.
 */

export type TaskStatus = 'PROCESSING' | 'SUCCESS' | 'FAIL';

export interface TaskError {
  code: number;
  message: string;
}

export interface NewTask {
  id: string;
  keyId: string;
  /** What the task does, e.g. `images.generations`; workers claim only the kinds they run. */
  kind: string;
  model: string;
  requestId: string;
  /** JSON text of the task's input. */
  input: string;
  createdAt: number;
}

export interface TaskRecord extends NewTask {
  status: TaskStatus;
  /** JSON text of the result, once SUCCESS. */
  result: string | undefined;
  error: TaskError | undefined;
  /** How many times a worker claimed the task. */
  attempts: number;
  leaseOwner: string | undefined;
  leaseUntil: number | undefined;
  updatedAt: number;
}

export interface TaskClaim {
  /** Identifies the worker (process + slot); only the lease holder may renew or finish the task. */
  owner: string;
  now: number;
  leaseMs: number;
  kinds: readonly string[];
}

export interface TaskStore {
  create(task: NewTask): Promise<void>;
  get(id: string): Promise<TaskRecord | undefined>;
  /**
   * Takes the oldest PROCESSING task of these kinds that nobody holds (never claimed, or its lease
   * ran out), atomically: two workers never hold one task. Counts the attempt.
   */
  claim(claim: TaskClaim): Promise<TaskRecord | undefined>;
  /** Extends the lease; false when the worker no longer holds the task (lost lease, finished). */
  heartbeat(id: string, owner: string, leaseUntil: number): Promise<boolean>;
  /** PROCESSING → SUCCESS by the lease holder; false when it was not the holder or the task ended. */
  complete(id: string, owner: string, result: string, now: number): Promise<boolean>;
  /** PROCESSING → FAIL by the lease holder; false when it was not the holder or the task ended. */
  fail(id: string, owner: string, error: TaskError, now: number): Promise<boolean>;
  /**
   * Gives a held task back to the queue at once, not counting the attempt (a graceful stop: the
   * job was cancelled, not crashed); false when the worker no longer holds it.
   */
  release(id: string, owner: string, now: number): Promise<boolean>;
  /** Deletes tasks that ended (SUCCESS or FAIL) before `before`; returns how many. */
  deleteEndedBefore(before: number): Promise<number>;
  /** PROCESSING tasks of these kinds that no worker holds at `now`: the queue's length. */
  countWaiting(kinds: readonly string[], now: number): Promise<number>;
  /**
   * Tasks of `kind` waiting at `now` (PROCESSING, held by no worker): in the whole queue, of
   * `keyId`, and of every key that `accountId` holds (the accounts' key owners).
   */
  waitingShares(kind: string, keyId: string, accountId: string | undefined, now: number): Promise<QueueHeld>;
  /**
   * Writes the task only if, counted at its `createdAt` and in one atomic step with the insert,
   * the queue and the shares of its key and account are below `share`: any number of concurrent
   * calls, from any number of processes, never take more than the share. A refusal writes nothing.
   */
  createWithin(task: NewTask, share: QueueShare): Promise<QueueAdmission>;
}

/** Waiting tasks of one kind: the whole queue, one key's, one account's (0 without an account). */
export interface QueueHeld {
  queue: number;
  key: number;
  account: number;
}

/** The most a new task may find waiting before it, per holder. */
export interface QueueShare {
  queueSize: number;
  perKey: number;
  /** The account whose keys share `perAccount`; absent for keys of no account. */
  accountId?: string | undefined;
  perAccount: number;
}

export type QueueAdmission = { admitted: true } | { admitted: false; full: keyof QueueHeld; held: number };

/** Which share is already taken, if any: the queue first, then the account, then the key. */
export function fullShare(held: QueueHeld, share: QueueShare): QueueAdmission {
  if (held.queue >= share.queueSize) return { admitted: false, full: 'queue', held: held.queue };
  if (share.accountId !== undefined && held.account >= share.perAccount) {
    return { admitted: false, full: 'account', held: held.account };
  }
  if (held.key >= share.perKey) return { admitted: false, full: 'key', held: held.key };
  return { admitted: true };
}

/** Row shape shared by the SQL implementations. */
export interface TaskRow {
  id: string;
  key_id: string;
  kind: string;
  model: string;
  request_id: string;
  input: string;
  status: string;
  result: string | null;
  error_code: number | null;
  error_message: string | null;
  attempts: number;
  lease_owner: string | null;
  lease_until: number | string | null;
  created_at: number | string;
  updated_at: number | string;
}

export function taskFromRow(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    keyId: row.key_id,
    kind: row.kind,
    model: row.model,
    requestId: row.request_id,
    input: row.input,
    status: row.status as TaskStatus,
    result: row.result ?? undefined,
    error: row.error_code === null ? undefined : { code: row.error_code, message: row.error_message ?? '' },
    attempts: Number(row.attempts),
    leaseOwner: row.lease_owner ?? undefined,
    leaseUntil: row.lease_until === null ? undefined : Number(row.lease_until),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
