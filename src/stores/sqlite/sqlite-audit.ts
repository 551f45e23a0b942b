import type Database from 'better-sqlite3';
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

/** The audit log in the SQLite store's file (table `audit_log`; a trigger refuses every UPDATE). */
export class SqliteAudit implements AuditStore {
  private readonly insert;
  private readonly purge;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT INTO audit_log (at, actor, address, action, target, before, after)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    );
    this.purge = db.prepare('DELETE FROM audit_log WHERE at < ?');
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    const { id } = this.insert.get(...auditToParams(entry)) as { id: number };
    return { ...entry, id };
  }

  async list(query: AuditQuery): Promise<AuditRecord[]> {
    const where = auditWhere(query, { placeholder: () => '?', startsWith: 'substr' });
    const rows = this.db
      .prepare(`SELECT * FROM audit_log ${where.sql} ORDER BY id DESC LIMIT ?`)
      .all(...where.params, query.limit) as AuditRow[];
    return rows.map(auditFromRow);
  }

  async deleteBefore(before: number): Promise<number> {
    return this.purge.run(before).changes;
  }
}
