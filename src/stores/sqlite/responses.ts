import type Database from 'better-sqlite3';
import {
  overKeyCap,
  overTotalCap,
  type ResponsePurge,
  type ResponseStore,
  type StoredResponse,
  type StoredResponseRow,
  storedResponseFromRow,
  storedResponseParams,
} from '../responses.js';

/** Stored responses in the SQLite store's file (table `stored_responses`). */
export class SqliteResponses implements ResponseStore {
  private readonly stmts;

  constructor(db: Database.Database) {
    this.stmts = {
      insert: db.prepare(
        `INSERT OR REPLACE INTO stored_responses (id, key_id, created_at, expires_at, bytes, response, input)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      select: db.prepare('SELECT * FROM stored_responses WHERE id = ? AND key_id = ? AND expires_at > ?'),
      remove: db.prepare('DELETE FROM stored_responses WHERE id = ? AND key_id = ?'),
      expired: db.prepare('DELETE FROM stored_responses WHERE expires_at <= ?'),
      overKeyCap: db.prepare(overKeyCap('?')),
      overTotalCap: db.prepare(overTotalCap('?')),
    };
  }

  async save(record: StoredResponse): Promise<void> {
    this.stmts.insert.run(...storedResponseParams(record));
  }

  async get(keyId: string, id: string, now: number): Promise<StoredResponse | undefined> {
    const row = this.stmts.select.get(id, keyId, now) as StoredResponseRow | undefined;
    return row && storedResponseFromRow(row);
  }

  async delete(keyId: string, id: string): Promise<boolean> {
    return this.stmts.remove.run(id, keyId).changes > 0;
  }

  async purge(options: ResponsePurge): Promise<number> {
    return (
      this.stmts.expired.run(options.now).changes +
      this.stmts.overKeyCap.run(options.maxBytesPerKey).changes +
      this.stmts.overTotalCap.run(options.maxBytes).changes
    );
  }
}
