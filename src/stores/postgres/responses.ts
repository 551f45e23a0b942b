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
import type { PgQueryable } from './pg-db.js';

/** Stored responses in PostgreSQL (table `stored_responses`). */
export class PostgresResponses implements ResponseStore {
  constructor(private readonly db: PgQueryable) {}

  async save(record: StoredResponse): Promise<void> {
    await this.db.query(
      `INSERT INTO stored_responses (id, key_id, created_at, expires_at, bytes, response, input)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, created_at = excluded.created_at,
         expires_at = excluded.expires_at, bytes = excluded.bytes, response = excluded.response, input = excluded.input`,
      storedResponseParams(record),
      { idempotent: true }, // an upsert of the whole row
    );
  }

  async get(keyId: string, id: string, now: number): Promise<StoredResponse | undefined> {
    const { rows } = await this.db.query<StoredResponseRow>(
      'SELECT * FROM stored_responses WHERE id = $1 AND key_id = $2 AND expires_at > $3',
      [id, keyId, now],
    );
    return rows[0] && storedResponseFromRow(rows[0]);
  }

  async delete(keyId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM stored_responses WHERE id = $1 AND key_id = $2', [id, keyId]);
    return (rowCount ?? 0) > 0;
  }

  async purge(options: ResponsePurge): Promise<number> {
    const once = { idempotent: true }; // deletes by age and size: running one twice deletes nothing more
    const expired = await this.db.query('DELETE FROM stored_responses WHERE expires_at <= $1', [options.now], once);
    const perKey = await this.db.query(overKeyCap('$1'), [options.maxBytesPerKey], once);
    const total = await this.db.query(overTotalCap('$1'), [options.maxBytes], once);
    return (expired.rowCount ?? 0) + (perKey.rowCount ?? 0) + (total.rowCount ?? 0);
  }
}
