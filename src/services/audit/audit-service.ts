import type { AuditQuery, AuditRecord, AuditStore } from '../../stores/audit.js';
import { retryThroughFaults } from '../../stores/retry-faults.js';
import { redact } from './redact.js';

/** Who acts, and from where: the edge makes it from the request (routes/audit-actor.ts). */
export interface Actor {
  /** `key:<id>` (an admin key, the console's admin), `account:<id>`, `cli:<user>`, `system`, `anonymous`. */
  id: string;
  /** The client's address; none for the CLI and the server's own acts. */
  address?: string | undefined;
}

export const SYSTEM: Actor = { id: 'system' };
export const ANONYMOUS = 'anonymous';

/** One administrative act: what, to what, and the state before and after (never a secret). */
export interface AuditAct {
  action: string;
  target?: string | undefined;
  before?: unknown;
  after?: unknown;
}

export interface AuditLogger {
  info(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

export interface AuditServiceOptions {
  /** Each record is also written here as one line; none in tests and the CLI. */
  log?: AuditLogger | undefined;
  /**
   * Records a minute of acts by anonymous actors (failed sign-ins): past it they are counted, and
   * one record says how many were left out, so that a flood of guesses cannot grow the log
   * without bound (`audit.anonymous_per_minute`).
   */
  anonymousPerMinute?: number;
  /** How long a record is retried while the store is faulty before it goes to the log only. */
  retryMs?: number;
  now?: () => number;
}

/** The JSON shape of a record, as `GET /admin/audit` and the log line show it. */
export interface AuditView {
  id: number;
  at: string;
  actor: string;
  address: string | null;
  action: string;
  target: string | null;
  before: unknown;
  after: unknown;
}

export const auditView = (r: AuditRecord): AuditView => ({
  id: r.id,
  at: new Date(r.at).toISOString(),
  actor: r.actor,
  address: r.address ?? null,
  action: r.action,
  target: r.target ?? null,
  before: r.before ?? null,
  after: r.after ?? null,
});

/**
 * The audit log: every administrative act goes through `record`, from the routes, the CLI and the
 * services that act on their own (sign-ins). A record is appended to the store (append-only; see
 * stores/audit.ts) and written to the log as one line. The act has already happened when it is
 * recorded, so a store that cannot take the record does not undo it: the record is retried for a
 * while, then kept in the log line with an error saying it is missing from the store.
 */
export class AuditService {
  private readonly log: AuditLogger | undefined;
  private readonly now: () => number;
  private readonly anonymousPerMinute: number;
  private readonly retryMs: number;
  private minute = 0;
  private anonymousThisMinute = 0;
  private suppressed = 0;
  private flushTimer: NodeJS.Timeout | undefined = undefined;

  constructor(
    private readonly store: AuditStore,
    options: AuditServiceOptions = {},
  ) {
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.anonymousPerMinute = options.anonymousPerMinute ?? 120;
    this.retryMs = options.retryMs ?? 5000;
  }

  /** Records an act; resolves once it is in the store (or, failing that, in the log). */
  async record(actor: Actor, act: AuditAct): Promise<void> {
    const at = this.now();
    if (actor.id === ANONYMOUS && !this.admitAnonymous(at)) return;
    const entry = {
      at,
      actor: actor.id,
      address: actor.address,
      action: act.action,
      target: act.target,
      before: redact(act.before),
      after: redact(act.after),
    };
    try {
      const record = await retryThroughFaults(() => this.store.append(entry), this.retryMs);
      this.log?.info({ audit: auditView(record) }, `audit: ${act.action}`);
    } catch (err) {
      this.log?.error(
        { audit: auditView({ ...entry, id: 0 }), error: err instanceof Error ? err.message : String(err) },
        `audit: ${act.action} could not be written to the store; this line is its only record`,
      );
    }
  }

  /** Records that match, newest first. */
  list(query: AuditQuery): Promise<AuditRecord[]> {
    return this.store.list(query);
  }

  /** Within the minute's allowance; past it, counted, and the count recorded when the minute ends. */
  private admitAnonymous(at: number): boolean {
    const minute = Math.floor(at / 60_000);
    if (minute !== this.minute) {
      this.flushSuppressed();
      this.minute = minute;
      this.anonymousThisMinute = 0;
    }
    if (this.anonymousThisMinute < this.anonymousPerMinute) {
      this.anonymousThisMinute++;
      return true;
    }
    if (this.suppressed++ === 0) {
      this.flushTimer = setTimeout(() => this.flushSuppressed(), (minute + 1) * 60_000 - at);
      this.flushTimer.unref();
    }
    return false;
  }

  private flushSuppressed(): void {
    clearTimeout(this.flushTimer);
    const left = this.suppressed;
    this.suppressed = 0;
    if (left > 0) void this.record(SYSTEM, { action: 'audit.suppressed', after: { anonymous_records: left } });
  }

  /** Records what the current minute left out. */
  close(): void {
    this.flushSuppressed();
  }
}
