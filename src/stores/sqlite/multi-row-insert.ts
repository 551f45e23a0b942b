import type Database from 'better-sqlite3';

/** Rows one multi-row INSERT holds at most (SQLite allows 32766 parameters). */
const ROWS_PER_STATEMENT = 64;

export interface MultiRowInsert {
  /** Names the statement among those this inserter prepares. */
  name: string;
  /** How many values a row binds. */
  width: number;
  /** The statement for a VALUES list of rows: `INSERT INTO t (…) ${values} ON CONFLICT …`, or an INSERT … SELECT from it. */
  sql(values: string): string;
}

/** The usual multi-row insert: the rows' values into these columns, then `tail` (an upsert's conflict clause). */
export function valuesInsert(table: string, columns: string[], tail = ''): MultiRowInsert {
  return {
    name: table,
    width: columns.length,
    sql: (values) => `INSERT INTO ${table} (${columns.join(', ')}) ${values} ${tail}`,
  };
}

/**
 * Inserts rows a statement for up to ROWS_PER_STATEMENT of them, each statement prepared once per
 * insert and number of rows: a batch of N rows costs a statement or two, not N. The rows come as
 * one flat list of values, row after row, the parameters as the statement binds them.
 */
export class MultiRowInserter {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  insert(insert: MultiRowInsert, values: unknown[]): void {
    const rows = values.length / insert.width;
    if (!Number.isInteger(rows))
      throw new RangeError(`${insert.name}: ${values.length} values for rows of ${insert.width}`);
    for (let i = 0; i < rows; i += ROWS_PER_STATEMENT) {
      const count = Math.min(ROWS_PER_STATEMENT, rows - i);
      const part = count === rows ? values : values.slice(i * insert.width, (i + count) * insert.width);
      this.statement(insert, count).run(part);
    }
  }

  private statement(insert: MultiRowInsert, rows: number): Database.Statement {
    const id = `${insert.name}\n${rows}`;
    let statement = this.statements.get(id);
    if (statement === undefined) {
      const row = `(${Array(insert.width).fill('?').join(', ')})`;
      statement = this.db.prepare(insert.sql(`VALUES ${Array(rows).fill(row).join(', ')}`));
      this.statements.set(id, statement);
    }
    return statement;
  }
}
