import { describe, expect, it } from 'vitest';
import { MultiRowInserter, valuesInsert } from '../../src/stores/sqlite/multi-row-insert.js';
import { openSqliteFile } from '../../src/util/sqlite/driver.js';

describe('MultiRowInserter', () => {
  const db = openSqliteFile(':memory:');
  db.exec('CREATE TABLE t (a INTEGER, b TEXT, c INTEGER PRIMARY KEY)');
  const rows = new MultiRowInserter(db);
  const insert = valuesInsert('t', ['a', 'b', 'c']);

  it('inserts rows given as one flat list, past the rows one statement holds', () => {
    const values: unknown[] = [];
    for (let i = 0; i < 150; i++) values.push(i, `row ${i}`, i + 1);
    rows.insert(insert, values);
    const stored = db.prepare('SELECT a, b, c FROM t ORDER BY c').all() as { a: number; b: string; c: number }[];
    expect(stored).toHaveLength(150);
    expect(stored[0]).toEqual({ a: 0, b: 'row 0', c: 1 });
    expect(stored[149]).toEqual({ a: 149, b: 'row 149', c: 150 });
  });

  it('inserts nothing for no rows, and refuses values that are not whole rows', () => {
    rows.insert(insert, []);
    expect(() => rows.insert(insert, [1, 'x'])).toThrow(RangeError);
    expect(db.prepare('SELECT COUNT(*) FROM t').pluck().get()).toBe(150);
  });
});
