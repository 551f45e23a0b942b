import { createRequire } from 'node:module';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { ensurePrivateDir, ensurePrivateFile, tightenExisting } from '../private-files.js';

/**
 * The SQLite binding for this runtime. better-sqlite3 12 derives its statements from
 * `node::ObjectWrap`, whose destructor aborts the process on Node 24.19+ when a garbage collection
 * finalises a statement outside a JS context (nodejs/node#65446): any idle GC after a query can end
 * the server. 13 is built on Node-API and has no such path, but needs Node-API 10 (Node 22.14+);
 * older runtimes (Node 20) load 12 from `better-sqlite3-node20`, an npm alias kept as an optional
 * dependency. Both have the same API.
 */
function loadDriver(): typeof BetterSqlite3 {
  const require = createRequire(import.meta.url);
  const modern = Number(process.versions.napi) >= 10;
  const name = modern ? 'better-sqlite3' : 'better-sqlite3-node20';
  try {
    return require(name) as typeof BetterSqlite3;
  } catch (error) {
    const need = modern ? 'better-sqlite3 13' : 'better-sqlite3 12 (the optional dependency better-sqlite3-node20)';
    throw new Error(`SQLite is not available on Node ${process.version}: ${need} did not load; run npm install`, {
      cause: error,
    });
  }
}

export const SqliteDatabase: typeof BetterSqlite3 = loadDriver();

/**
 * Opens a database file, made private first: the directory 0700, the file and its journals 0600
 * (SQLite gives its -wal and -shm files the database file's mode). `:memory:` is opened as it is.
 */
export function openSqliteFile(file: string): BetterSqlite3.Database {
  if (file === ':memory:' || file === '') return new SqliteDatabase(file);
  ensurePrivateDir(path.dirname(file));
  ensurePrivateFile(file);
  tightenExisting([`${file}-wal`, `${file}-shm`, `${file}-journal`]);
  return new SqliteDatabase(file);
}
