/**
 * The audit log, a sub-interface of the store seam (`store.audit`): one record per administrative
 * act, appended and never changed. There is no update: the tables refuse one (a trigger on both
 * databases), and only retention deletes records, oldest first. Every implementation passes
 * test/contracts/audit-store.contract.ts. Times are Unix milliseconds.
 */

/** What an act is recorded as; `before` and `after` are JSON values (objects, usually), never secrets. */
export interface AuditEntry {
  at: number;
  /** Who acted: `key:<id>` (an admin key), `account:<id>`, `cli:<user>`, `system`, `anonymous`. */
  actor: string;
  /** The client's address; undefined when the act came from no network (the CLI, the server itself). */
  address: string | undefined;
  /** What was done, `<object>.<verb>`: `key.create`, `account.disable`, `session.sign_in_failed`, ... */
  action: string;
  /** What it was done to: `key:<id>`, `account:<id>`, ...; undefined when nothing in particular. */
  target: string | undefined;
  before: unknown;
  after: unknown;
}

export interface AuditRecord extends AuditEntry {
  /** Increasing in the order records were appended. */
  id: number;
}

export interface AuditQuery {
  /** An action, or a prefix ending in `*` (`key.*`). */
  action?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
  /** Records at or after this time. */
  since?: number | undefined;
  /** Records before this time. */
  until?: number | undefined;
  /** Records with a smaller id (the next page after a page that ended at this id). */
  beforeId?: number | undefined;
  limit: number;
}

export interface AuditStore {
  /** Appends one record; returns it with its id. */
  append(entry: AuditEntry): Promise<AuditRecord>;
  /** Records that match, newest first, at most `limit`. */
  list(query: AuditQuery): Promise<AuditRecord[]>;
  /** Retention: deletes the records older than `before`; returns how many. */
  deleteBefore(before: number): Promise<number>;
}

/** The row both SQL stores keep; before and after as JSON text. */
export interface AuditRow {
  id: number | string;
  at: number | string;
  actor: string;
  address: string | null;
  action: string;
  target: string | null;
  before: string | null;
  after: string | null;
}

const json = (value: unknown): string | null => (value === undefined || value === null ? null : JSON.stringify(value));
const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

export const auditToParams = (e: AuditEntry): unknown[] => [
  e.at,
  e.actor,
  e.address ?? null,
  e.action,
  e.target ?? null,
  json(e.before),
  json(e.after),
];

export const auditFromRow = (row: AuditRow): AuditRecord => ({
  id: Number(row.id),
  at: Number(row.at),
  actor: row.actor,
  address: row.address ?? undefined,
  action: row.action,
  target: row.target ?? undefined,
  before: parsed(row.before),
  after: parsed(row.after),
});

/** How a database writes a placeholder and a prefix test. */
export interface AuditDialect {
  /** The placeholder of the n-th parameter (1-based): `?` or `$n`. */
  placeholder(n: number): string;
  /** A clause true when `action` starts with the text of placeholder `p`, which may be used twice. */
  startsWith: 'substr' | 'starts_with';
}

/**
 * The WHERE clause of a query and its parameters. A `*` at the end of `action` matches every
 * action that starts with what precedes it (no LIKE, so `%` and `_` mean themselves).
 */
export function auditWhere(query: AuditQuery, dialect: AuditDialect): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return dialect.placeholder(params.length);
  };
  if (query.action !== undefined) {
    if (query.action.endsWith('*')) {
      const prefix = query.action.slice(0, -1);
      clauses.push(
        dialect.startsWith === 'starts_with'
          ? `starts_with(action, ${next(prefix)})`
          : `substr(action, 1, length(${next(prefix)})) = ${next(prefix)}`,
      );
    } else clauses.push(`action = ${next(query.action)}`);
  }
  if (query.actor !== undefined) clauses.push(`actor = ${next(query.actor)}`);
  if (query.target !== undefined) clauses.push(`target = ${next(query.target)}`);
  if (query.since !== undefined) clauses.push(`at >= ${next(query.since)}`);
  if (query.until !== undefined) clauses.push(`at < ${next(query.until)}`);
  if (query.beforeId !== undefined) clauses.push(`id < ${next(query.beforeId)}`);
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}
