import type pg from 'pg';
import {
  type ConversationRecord,
  type ConversationRow,
  type ConversationStore,
  conversationFromRow,
  conversationToParams,
} from '../conversations.js';

/** Conversations in PostgreSQL (table `agent_conversations`, migration 3). */
export class PostgresConversations implements ConversationStore {
  constructor(private readonly pool: pg.Pool) {}

  async save(record: ConversationRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO agent_conversations (id, key_id, agent_id, settings, source_text, translation, usage, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (id) DO UPDATE SET key_id = excluded.key_id, agent_id = excluded.agent_id,
         settings = excluded.settings, source_text = excluded.source_text, translation = excluded.translation,
         usage = excluded.usage, created_at = excluded.created_at`,
      conversationToParams(record),
    );
  }

  async get(keyId: string, id: string): Promise<ConversationRecord | undefined> {
    const { rows } = await this.pool.query<ConversationRow>(
      'SELECT * FROM agent_conversations WHERE id = $1 AND key_id = $2',
      [id, keyId],
    );
    return rows[0] && conversationFromRow(rows[0]);
  }
}
