import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SqliteDatabase } from '../../src/util/sqlite/driver.js';
import { sourceFiles } from '../guards/source-files.js';

/** `file` for each module that loads a better-sqlite3 binding itself instead of through the driver. */
function directLoads(): string[] {
  return sourceFiles()
    .filter((file) => file.path !== 'src/util/sqlite/driver.ts')
    .filter((file) => {
      const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest);
      return source.statements.some(
        (s) =>
          ts.isImportDeclaration(s) &&
          ts.isStringLiteral(s.moduleSpecifier) &&
          s.moduleSpecifier.text.startsWith('better-sqlite3') &&
          !s.importClause?.isTypeOnly,
      );
    })
    .map((file) => file.path);
}

describe('the SQLite driver', () => {
  it('loads the binding that suits this runtime, and it works', () => {
    const db = new SqliteDatabase(':memory:');
    db.exec('CREATE TABLE t (v TEXT)');
    db.prepare('INSERT INTO t VALUES (?)').run('x');
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 'x' }]);
    db.close();
  });

  it('is the only module that loads better-sqlite3 (12 aborts the process on Node 24.19+)', () => {
    expect(directLoads()).toEqual([]);
  });
});
