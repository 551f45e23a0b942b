import type pg from 'pg';
import type { DependencyStatus } from '../dependency-status.js';
import { retryable, StoreUnavailableError } from '../faults.js';

export interface QueryOptions {
  /**
   * Harmless to run twice (a read, an upsert, a guarded update), so it is repeated even when the
   * connection broke while it ran. Default: true for a plain SELECT, false for anything else.
   */
  idempotent?: boolean;
}

/** What the PostgreSQL stores query through (a PgDb, or a fake in tests). */
export interface PgQueryable {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<pg.QueryResult<R>>;
}

export interface RetryPolicy {
  /** How long one call may keep retrying a fault, when the database was up as it began. */
  budgetMs: number;
  /** First pause; doubled after each attempt (with jitter), at most 1 s. */
  firstDelayMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PLAIN_SELECT = /^\s*SELECT\b/i;

/**
 * A pool's queries with faults handled: a fault is retried with backoff when the statement may
 * run again (faults.ts), within a budget; then the call fails with StoreUnavailableError, which the
 * API answers 503 / 1305. When the database is already known to be down, a call tries once, so that
 * an outage is answered at once rather than after every request's own budget.
 */
export class PgDb implements PgQueryable {
  constructor(
    readonly pool: pg.Pool,
    readonly status: DependencyStatus,
    private readonly policy: RetryPolicy,
  ) {}

  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
    options: QueryOptions = {},
  ): Promise<pg.QueryResult<R>> {
    const idempotent = options.idempotent ?? PLAIN_SELECT.test(sql);
    const deadline = this.status.up ? Date.now() + this.policy.budgetMs : 0;
    let delay = this.policy.firstDelayMs;
    for (;;) {
      try {
        const result = await this.pool.query<R>(sql, params);
        this.status.succeeded(!PLAIN_SELECT.test(sql));
        return result;
      } catch (err) {
        const fault = this.status.failed(err);
        if (!fault) throw err;
        const pause = delay * (0.5 + Math.random());
        if (!retryable(fault, idempotent) || Date.now() + pause > deadline) {
          throw new StoreUnavailableError(fault, { cause: err });
        }
        await sleep(pause);
        delay = Math.min(delay * 2, 1000);
      }
    }
  }
}
