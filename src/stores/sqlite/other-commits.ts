import type Database from 'better-sqlite3';

/**
 * How often, at most, SQLite is asked whether another connection has committed: a change made by
 * the CLI or another process is seen from 1 ms after it, and a burst of requests pays for one read
 * of data_version (a read transaction: two file-lock syscalls) rather than one each.
 */
const VERSION_READ_MS = 1;

/**
 * Commits by other connections to the same file, for what a store keeps in memory (key rows,
 * balances): `version()` changes when one has committed. This connection's own writes never change
 * it, so a cache updates itself on those.
 */
export class OtherCommits {
  private readonly read: Database.Statement;
  private last = -1;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(db: Database.Database) {
    this.read = db.prepare('PRAGMA data_version').pluck();
  }

  /** data_version as read at most VERSION_READ_MS ago. */
  version(): number {
    const now = performance.now();
    if (now - this.readAt >= VERSION_READ_MS) {
      this.readAt = now;
      this.last = this.read.get() as number;
    }
    return this.last;
  }
}
