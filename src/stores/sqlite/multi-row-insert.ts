import type Database from 'better-sqlite3';

/** Rows one multi-row INSERT holds at most (SQLite allows 32766 parameters). */
const ROWS_PER_STATEMENT = 64;

export interface MultiRowInsert {
  table: string;
  columns: string;
  /** After the VALUES: an upsert's conflict clause. */
  tail: string;
}

/**
 * Inserts rows a statement for up to ROWS_PER_STATEMENT of them, each statement prepared once per
 * table and number of rows: a batch of N rows costs a statement or two, not N.
 */
export class MultiRowInserter {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  insert(insert: MultiRowInsert, rows: unknown[][]): void {
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const part = rows.slice(i, i + ROWS_PER_STATEMENT);
      const id = `${insert.table}\n${insert.columns}\n${part.length}`;
      let statement = this.statements.get(id);
      if (statement === undefined) {
        const values = Array(part.length)
          .fill(`(${Array(part[0]!.length).fill('?').join(', ')})`)
          .join(', ');
        statement = this.db.prepare(`INSERT INTO ${insert.table} (${insert.columns}) VALUES ${values} ${insert.tail}`);
        this.statements.set(id, statement);
      }
      statement.run(part.flat());
    }
  }
}
