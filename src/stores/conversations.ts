/**
 * Agent conversations, a sub-interface of the store seam (`store.conversations`). A conversation
 * belongs to the key that made it: reading one with another key finds nothing, as if it did not
 * exist (docs/wire.md, "Errors", 1233). Every implementation passes test/contracts/conversations.contract.ts.
 */

export interface ConversationUsage {
  promptTokens: number;
  completionTokens: number;
  totalCalls: number;
}

export interface ConversationRecord {
  id: string;
  keyId: string;
  agentId: string;
  /** What the agent was asked: source and target language, strategy, glossary, as it ran. */
  settings: Record<string, string>;
  sourceText: string;
  /** The agent's answer, whole. */
  translation: string;
  usage: ConversationUsage;
  createdAt: number;
}

export interface ConversationStore {
  /** Saves a new conversation; saving an id twice replaces the first (a retried write). */
  save(record: ConversationRecord): Promise<void>;
  /** The conversation, when it exists and belongs to `keyId`. */
  get(keyId: string, id: string): Promise<ConversationRecord | undefined>;
  /** Deletes the conversations (their texts with them) made before `before`; returns how many. */
  deleteBefore(before: number): Promise<number>;
}

/** The row both SQL stores keep; settings and usage as JSON text. */
export interface ConversationRow {
  id: string;
  key_id: string;
  agent_id: string;
  settings: string;
  source_text: string;
  translation: string;
  usage: string;
  created_at: number;
}

export const conversationToParams = (r: ConversationRecord): unknown[] => [
  r.id,
  r.keyId,
  r.agentId,
  JSON.stringify(r.settings),
  r.sourceText,
  r.translation,
  JSON.stringify(r.usage),
  r.createdAt,
];

export const conversationFromRow = (row: ConversationRow): ConversationRecord => ({
  id: row.id,
  keyId: row.key_id,
  agentId: row.agent_id,
  settings: JSON.parse(row.settings) as Record<string, string>,
  sourceText: row.source_text,
  translation: row.translation,
  usage: JSON.parse(row.usage) as ConversationUsage,
  createdAt: Number(row.created_at),
});
