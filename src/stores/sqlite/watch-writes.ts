import type Database from 'better-sqlite3';
import type { DependencyStatus } from '../dependency-status.js';
import { asStoreError } from './sqlite-faults.js';

/**
 * Feeds the store's DependencyStatus from every statement's `run` (the writes), SQLite's fault codes
 * turned into a StoreUnavailableError (sqlite-faults.ts) on the way out: a full disk or an
 * I/O error marks the database full or down for /health; the next write that works marks it up
 * after an I/O error, while a full disk is cleared only by a check that finds room (the store's
 * ping). Wrapped at `prepare`, so that the sub-stores' statements are watched as well; must be
 * called before any statement is prepared. Reads are not watched: they keep working on a full disk.
 */
export function watchWrites(db: Database.Database, status: DependencyStatus): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const statement = prepare(source);
    if (statement.reader) return statement;
    const run = statement.run.bind(statement);
    statement.run = (...params: unknown[]) => {
      try {
        const result = run(...params);
        // A write that fit in a page with room proves the file is back, not that the disk has space.
        status.succeeded(false);
        return result;
      } catch (err) {
        const thrown = asStoreError(err);
        status.failed(thrown);
        throw thrown;
      }
    };
    return statement;
  }) as typeof db.prepare;
}
