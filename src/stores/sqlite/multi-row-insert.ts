import type Database from 'better-sqlite3';

/** Rows one multi-row INSERT holds at most (SQLite allows 32766 parameters). */
const ROWS_PER_STATEMENT = 64;

export interface MultiRowInsert {
  table: string;
  columns: string;
  /** How many columns: the values of a row. */
  width: number;
  /** After the VALUES: an upsert's conflict clause. */
  tail: string;
}

/**
 * Inserts rows a statement for up to ROWS_PER_STATEMENT of them, each statement prepared once per
 * table and number of rows: a batch of N rows costs a statement or two, not N. The rows come as
 * one flat list of values, row after row, the parameters as the statement binds them.
 */
export class MultiRowInserter {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  insert(insert: MultiRowInsert, values: unknown[]): void {
    const rows = values.length / insert.width;
    if (!Number.isInteger(rows))
      throw new RangeError(`${insert.table}: ${values.length} values for rows of ${insert.width}`);
    for (let i = 0; i < rows; i += ROWS_PER_STATEMENT) {
      const count = Math.min(ROWS_PER_STATEMENT, rows - i);
      const part = count === rows ? values : values.slice(i * insert.width, (i + count) * insert.width);
      this.statement(insert, count).run(part);
    }
  }

  private statement(insert: MultiRowInsert, rows: number): Database.Statement {
    const id = `${insert.table}\n${insert.columns}\n${rows}`;
    let statement = this.statements.get(id);
    if (statement === undefined) {
      const values = Array(rows)
        .fill(`(${Array(insert.width).fill('?').join(', ')})`)
        .join(', ');
      statement = this.db.prepare(`INSERT INTO ${insert.table} (${insert.columns}) VALUES ${values} ${insert.tail}`);
      this.statements.set(id, statement);
    }
    return statement;
  }
}
