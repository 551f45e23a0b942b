/** Versioned schema of the SQLite store; a migration is never edited once released, only added. */
export const SQLITE_MIGRATIONS: readonly { version: number; sql: string }[] = [
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
        limits TEXT,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE TABLE usage_records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        key_id TEXT NOT NULL,
        operation TEXT NOT NULL,
        model TEXT,
        request_id TEXT,
        prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL,
        status INTEGER NOT NULL,
        latency_ms REAL NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX usage_records_key_time ON usage_records (key_id, created_at);
      CREATE TABLE request_ids (
        key_id TEXT NOT NULL,
        request_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (key_id, request_id)
      ) WITHOUT ROWID;
      CREATE TABLE cache_entries (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `,
  },
  {
    // Asynchronous tasks: leased rows; the partial index serves claims and the queue count.
    version: 2,
    sql: `
      CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        kind TEXT NOT NULL,
        model TEXT NOT NULL,
        request_id TEXT NOT NULL,
        input TEXT NOT NULL,
        status TEXT NOT NULL,
        result TEXT,
        error_code INTEGER,
        error_message TEXT,
        attempts INTEGER NOT NULL,
        lease_owner TEXT,
        lease_until INTEGER,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX tasks_open ON tasks (created_at, id) WHERE status = 'PROCESSING';
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
        created_at INTEGER NOT NULL
      );
      CREATE INDEX agent_conversations_key ON agent_conversations (key_id, created_at);
    `,
  },
  {
    // The console: account holders, their sessions, and which account holds which key.
    version: 4,
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        disabled_at INTEGER
      );
      CREATE TABLE console_sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT,
        admin_key_id TEXT,
        csrf_token TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX console_sessions_account ON console_sessions (account_id);
      CREATE TABLE key_owners (
        key_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL
      );
      CREATE INDEX key_owners_account ON key_owners (account_id);
    `,
  },
  {
    // Housekeeping (store.purge): expired cache entries and old request ids are deleted by age.
    version: 5,
    sql: `
      CREATE INDEX cache_entries_expires ON cache_entries (expires_at);
      CREATE INDEX request_ids_created ON request_ids (created_at);
    `,
  },
  {
    // Usage journals (services/usage/) are replayed idempotently: a record's journal id is unique.
    version: 6,
    sql: `
      ALTER TABLE usage_records ADD COLUMN journal_id TEXT;
      CREATE UNIQUE INDEX usage_records_journal_id ON usage_records (journal_id);
    `,
  },
  {
    // The audit log: appended, never changed (the trigger refuses updates); retention deletes by age.
    version: 7,
    sql: `
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        actor TEXT NOT NULL,
        address TEXT,
        action TEXT NOT NULL,
        target TEXT,
        before TEXT,
        after TEXT
      );
      CREATE INDEX audit_log_at ON audit_log (at);
      CREATE INDEX audit_log_actor ON audit_log (actor, id);
      CREATE INDEX audit_log_action ON audit_log (action, id);
      CREATE TRIGGER audit_log_frozen BEFORE UPDATE ON audit_log
      BEGIN SELECT RAISE(ABORT, 'audit records cannot be changed'); END;
    `,
  },
  {
    // Money: balances and their ledger, spend per key and account by period, budgets, edited prices
    // and redemption codes; a usage record keeps its cost and cached tokens. SQLite serves one
    // process: reservations of calls in progress live in it (src/stores/sqlite/sqlite-money.ts).
    version: 8,
    sql: `
      ALTER TABLE usage_records ADD COLUMN cost INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE usage_records ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE money_balances (
        account_id TEXT PRIMARY KEY,
        balance INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE money_ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        account_id TEXT NOT NULL,
        amount INTEGER NOT NULL,
        balance_after INTEGER NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        note TEXT NOT NULL,
        ref TEXT,
        key_id TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX money_ledger_account ON money_ledger (account_id, id);
      CREATE INDEX money_ledger_time ON money_ledger (created_at);
      CREATE TABLE money_spend (
        scope TEXT NOT NULL,
        period TEXT NOT NULL,
        spent INTEGER NOT NULL,
        PRIMARY KEY (scope, period)
      ) WITHOUT ROWID;
      CREATE TABLE money_budgets (
        scope TEXT PRIMARY KEY,
        total INTEGER,
        daily INTEGER,
        monthly INTEGER,
        updated_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE price_overrides (
        code TEXT PRIMARY KEY,
        price TEXT,
        updated_at INTEGER NOT NULL,
        updated_by TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE redemption_batches (
        id TEXT PRIMARY KEY,
        amount INTEGER NOT NULL,
        count INTEGER NOT NULL,
        expires_at INTEGER,
        note TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE redemption_codes (
        code_hash TEXT PRIMARY KEY,
        batch_id TEXT NOT NULL,
        code_encrypted TEXT NOT NULL,
        redeemed_by TEXT,
        redeemed_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX redemption_codes_batch ON redemption_codes (batch_id);
    `,
  },
  {
    // Stored responses of the Responses API (store.responses): owner-only, purged by expiry and size.
    version: 9,
    sql: `
      CREATE TABLE stored_responses (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        response TEXT NOT NULL,
        input TEXT NOT NULL
      );
      CREATE INDEX stored_responses_key ON stored_responses (key_id, created_at);
      CREATE INDEX stored_responses_expires ON stored_responses (expires_at);
    `,
  },
  {
    // Governance: a key's allowlists, expiry and note; the secret a roll replaced; an account's own
    // limits, allowlists and cap on keys.
    version: 10,
    sql: `
      ALTER TABLE api_keys ADD COLUMN policy TEXT;
      ALTER TABLE api_keys ADD COLUMN previous_secret TEXT;
      ALTER TABLE accounts ADD COLUMN policy TEXT;
    `,
  },
];
