import {
  type AuditEntry,
  type AuditQuery,
  type AuditRecord,
  type AuditRow,
  type AuditStore,
  auditFromRow,
  auditToParams,
  auditWhere,
} from '../audit.js';
import type { PgQueryable } from './pg-db.js';

/** The audit log on PostgreSQL (table `audit_log`; a trigger refuses every UPDATE). */
export class PostgresAudit implements AuditStore {
  constructor(private readonly db: PgQueryable) {}

  async append(entry: AuditEntry): Promise<AuditRecord> {
    // Not repeated after a broken connection unless it certainly did not run: a record twice would
    // say an act happened twice.
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO audit_log (at, actor, address, action, target, before, after)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      auditToParams(entry),
    );
    return { ...entry, id: Number(rows[0]!.id) };
  }

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    const where = auditWhere(query, { placeholder: (n) => `$${n}`, startsWith: 'starts_with' });
    const { rows } = await this.db.query<AuditRow>(
      `SELECT * FROM audit_log ${where.sql} ORDER BY id DESC LIMIT $${where.params.length + 1}`,
      [...where.params, query.limit],
    );
    return rows.map(auditFromRow);
  }

  async deleteBefore(before: number): Promise<number> {
    const result = await this.db.query('DELETE FROM audit_log WHERE at < $1', [before], { idempotent: true });
    return result.rowCount ?? 0;
  }
}
