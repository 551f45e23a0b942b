/** Versioned schema of the PostgreSQL store; a migration is never edited once released, only added. */
export const POSTGRES_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        secret_hash TEXT NOT NULL,
        secret_encrypted TEXT NOT NULL,
        endpoints TEXT NOT NULL,
        role TEXT NOT NULL,
        limits JSONB,
        created_at BIGINT NOT NULL,
        revoked_at BIGINT
      );
      CREATE TABLE usage_records (
        id BIGSERIAL PRIMARY KEY,
        key_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        model TEXT,
        request_id TEXT,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        status INTEGER NOT NULL,
        latency_ms DOUBLE PRECISION NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX usage_records_key_time ON usage_records (key_id, created_at);
      CREATE TABLE request_ids (
        key_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (key_id, request_id)
      );
      CREATE TABLE cache_entries (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 3,
    sql: `
      CREATE TABLE agent_conversations (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        agent_id TEXT NOT NULL,
        settings TEXT NOT NULL,
        source_text TEXT NOT NULL,
        translation TEXT NOT NULL,
        usage TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX agent_conversations_key ON agent_conversations (key_id, created_at);
    `,
  },
];
