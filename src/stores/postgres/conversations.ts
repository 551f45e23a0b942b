import {
  type ConversationRecord,
  type ConversationRow,
  type ConversationStore,
  conversationFromRow,
  conversationToParams,
} from '../conversations.js';
import type { PgQueryable } from './pg-db.js';

/** Conversations in PostgreSQL (table `agent_conversations`, migration 3). */
export class PostgresConversations implements ConversationStore {
  constructor(private readonly db: PgQueryable) {}

  async save(record: ConversationRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO agent_conversations (id, key_id, agent_id, settings, source_text, translation, usage, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, agent_id = excluded.agent_id,
         settings = excluded.settings, source_text = excluded.source_text, translation = excluded.translation,
         usage = excluded.usage, created_at = excluded.created_at`,
      conversationToParams(record),
      { idempotent: true }, // an upsert of the whole row
    );
  }

  async get(keyId: string, id: string): Promise<ConversationRecord | undefined> {
    const { rows } = await this.db.query<ConversationRow>(
      'SELECT * FROM agent_conversations WHERE id = $1 AND key_id = $2',
      [id, keyId],
    );
    return rows[0] && conversationFromRow(rows[0]);
  }

  async deleteBefore(before: number): Promise<number> {
    const result = await this.db.query('DELETE FROM agent_conversations WHERE created_at < $1', [before], {
      idempotent: true, // a second run finds nothing more to delete
    });
    return result.rowCount ?? 0;
  }
}
