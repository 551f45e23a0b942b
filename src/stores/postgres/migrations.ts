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
        lease_until BIGINT,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
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
        created_at BIGINT NOT NULL
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
        created_at BIGINT NOT NULL,
        disabled_at BIGINT
      );
      CREATE TABLE console_sessions (
        id_hash TEXT PRIMARY KEY,
        account_id TEXT,
        admin_key_id TEXT,
        csrf_token TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
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
        id BIGSERIAL PRIMARY KEY,
        at BIGINT NOT NULL,
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
      CREATE FUNCTION audit_log_frozen() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit records cannot be changed'; END $$;
      CREATE TRIGGER audit_log_frozen BEFORE UPDATE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_frozen();
    `,
  },
  {
    // Money: balances and their ledger, spend per key and account by period, budgets, reservations
    // of calls in progress (leased, so a dead process's are released), edited prices and redemption
    // codes; a usage record keeps its cost and cached tokens. money_reserve holds an amount for a
    // call in one round trip: it locks the account's balance row first, so every reservation of an
    // account and its keys is checked against the spend and holds committed before it.
    version: 8,
    sql: `
      ALTER TABLE usage_records ADD COLUMN cost BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE usage_records ADD COLUMN cached_tokens INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE money_balances (
        account_id TEXT PRIMARY KEY,
        balance BIGINT NOT NULL,
        reserved BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE money_ledger (
        id BIGSERIAL PRIMARY KEY,
        account_id TEXT NOT NULL,
        amount BIGINT NOT NULL,
        balance_after BIGINT NOT NULL,
        kind TEXT NOT NULL,
        actor TEXT NOT NULL,
        note TEXT NOT NULL,
        ref TEXT,
        key_id TEXT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX money_ledger_account ON money_ledger (account_id, id);
      CREATE INDEX money_ledger_time ON money_ledger (created_at);
      CREATE TABLE money_spend (
        scope TEXT NOT NULL,
        period TEXT NOT NULL,
        spent BIGINT NOT NULL,
        PRIMARY KEY (scope, period)
      );
      CREATE TABLE money_budgets (
        scope TEXT PRIMARY KEY,
        total BIGINT,
        daily BIGINT,
        monthly BIGINT,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE money_reservations (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        amount BIGINT NOT NULL,
        owner TEXT NOT NULL,
        lease_until BIGINT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX money_reservations_key ON money_reservations (key_id);
      CREATE INDEX money_reservations_owner ON money_reservations (owner);
      CREATE INDEX money_reservations_lease ON money_reservations (lease_until);
      CREATE TABLE price_overrides (
        code TEXT PRIMARY KEY,
        price TEXT,
        updated_at BIGINT NOT NULL,
        updated_by TEXT NOT NULL
      );
      CREATE TABLE redemption_batches (
        id TEXT PRIMARY KEY,
        amount BIGINT NOT NULL,
        count INTEGER NOT NULL,
        expires_at BIGINT,
        note TEXT NOT NULL,
        created_by TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE redemption_codes (
        code_hash TEXT PRIMARY KEY,
        batch_id TEXT NOT NULL,
        code_encrypted TEXT NOT NULL,
        redeemed_by TEXT,
        redeemed_at BIGINT
      );
      CREATE INDEX redemption_codes_batch ON redemption_codes (batch_id);

      CREATE FUNCTION money_now_ms() RETURNS BIGINT LANGUAGE sql VOLATILE AS
        'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint';

      -- No row: held. One row: what refused it (balance, or a budget's period and scope), the limit and what is used.
      CREATE FUNCTION money_reserve(
        p_id TEXT, p_account TEXT, p_key TEXT, p_amount BIGINT, p_owner TEXT, p_lease_ms BIGINT,
        p_day TEXT, p_month TEXT, p_require_balance BOOLEAN
      ) RETURNS TABLE (what TEXT, scope TEXT, lim BIGINT, used BIGINT) LANGUAGE plpgsql AS $fn$
      DECLARE
        v_balance BIGINT;
        v_reserved BIGINT;
        v_held BIGINT;
        v_spent BIGINT;
        b RECORD;
      BEGIN
        INSERT INTO money_balances (account_id, balance, reserved, updated_at)
          VALUES (p_account, 0, 0, money_now_ms()) ON CONFLICT (account_id) DO NOTHING;
        SELECT m.balance, m.reserved INTO v_balance, v_reserved
          FROM money_balances m WHERE m.account_id = p_account FOR UPDATE;
        IF p_require_balance AND v_balance - v_reserved < p_amount THEN
          RETURN QUERY SELECT 'balance'::text, 'account:' || p_account, v_balance, v_reserved;
          RETURN;
        END IF;
        FOR b IN
          SELECT g.scope, g.total, g.daily, g.monthly FROM money_budgets g
          WHERE g.scope IN ('account:' || p_account, 'key:' || p_key)
          ORDER BY g.scope
        LOOP
          IF b.scope = 'account:' || p_account THEN
            v_held := v_reserved;
          ELSE
            SELECT COALESCE(SUM(r.amount), 0) INTO v_held FROM money_reservations r WHERE r.key_id = p_key;
          END IF;
          IF b.total IS NOT NULL THEN
            SELECT COALESCE(MAX(s.spent), 0) INTO v_spent FROM money_spend s WHERE s.scope = b.scope AND s.period = 'total';
            IF v_spent + v_held + p_amount > b.total THEN
              RETURN QUERY SELECT 'total'::text, b.scope, b.total, v_spent + v_held;
              RETURN;
            END IF;
          END IF;
          IF b.monthly IS NOT NULL THEN
            SELECT COALESCE(MAX(s.spent), 0) INTO v_spent FROM money_spend s WHERE s.scope = b.scope AND s.period = 'm:' || p_month;
            IF v_spent + v_held + p_amount > b.monthly THEN
              RETURN QUERY SELECT 'monthly'::text, b.scope, b.monthly, v_spent + v_held;
              RETURN;
            END IF;
          END IF;
          IF b.daily IS NOT NULL THEN
            SELECT COALESCE(MAX(s.spent), 0) INTO v_spent FROM money_spend s WHERE s.scope = b.scope AND s.period = 'd:' || p_day;
            IF v_spent + v_held + p_amount > b.daily THEN
              RETURN QUERY SELECT 'daily'::text, b.scope, b.daily, v_spent + v_held;
              RETURN;
            END IF;
          END IF;
        END LOOP;
        UPDATE money_balances SET reserved = reserved + p_amount WHERE account_id = p_account;
        INSERT INTO money_reservations (id, account_id, key_id, amount, owner, lease_until, created_at)
          VALUES (p_id, p_account, p_key, p_amount, p_owner, money_now_ms() + p_lease_ms, money_now_ms())
          ON CONFLICT (id) DO UPDATE SET amount = money_reservations.amount + EXCLUDED.amount,
            lease_until = EXCLUDED.lease_until;
      END;
      $fn$;
    `,
  },
  {
    // Stored responses of the Responses API (store.responses): owner-only, purged by expiry and size.
    version: 9,
    sql: `
      CREATE TABLE stored_responses (
        id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        bytes BIGINT NOT NULL,
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
      ALTER TABLE api_keys ADD COLUMN policy JSONB;
      ALTER TABLE api_keys ADD COLUMN previous_secret JSONB;
      ALTER TABLE accounts ADD COLUMN policy JSONB;
    `,
  },
];
