import type Database from 'better-sqlite3';
import {
  type ConversationRecord,
  type ConversationRow,
  type ConversationStore,
  conversationFromRow,
  conversationToParams,
} from '../conversations.js';

/** Conversations in the SQLite store's file (table `agent_conversations`, migration 3). */
export class SqliteConversations implements ConversationStore {
  private readonly insert;
  private readonly select;
  private readonly deleteOld;

  constructor(db: Database.Database) {
    this.insert = db.prepare(
      `INSERT OR REPLACE INTO agent_conversations (id, key_id, agent_id, settings, source_text, translation, usage, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.select = db.prepare('SELECT * FROM agent_conversations WHERE id = ? AND key_id = ?');
    this.deleteOld = db.prepare('DELETE FROM agent_conversations WHERE created_at < ?');
  }

  async save(record: ConversationRecord): Promise<void> {
    this.insert.run(...conversationToParams(record));
  }

  async get(keyId: string, id: string): Promise<ConversationRecord | undefined> {
    const row = this.select.get(id, keyId) as ConversationRow | undefined;
    return row && conversationFromRow(row);
  }

  async deleteBefore(before: number): Promise<number> {
    return this.deleteOld.run(before).changes;
  }
}
