import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './transaction.js';

export const SCHEMA_VERSION = 6;
/** The last step after which every document's postings must be computed again. */
const LAST_REBUILDING_STEP = 3;

// Unqualified names: the tables land in the pool's current schema (its search_path), so a
// deployment or a test picks the schema by connection settings, not by code.
const MIGRATIONS: Record<number, string> = {
  1: `
    CREATE TABLE IF NOT EXISTS search_documents (
      id bigserial PRIMARY KEY,
      collection text NOT NULL,
      url text NOT NULL,
      title text NOT NULL,
      content text NOT NULL,
      site text,
      host text NOT NULL,
      published text,
      published_ms bigint,
      tsv tsvector NOT NULL,
      UNIQUE (collection, url)
    );
    CREATE INDEX IF NOT EXISTS search_documents_tsv ON search_documents USING gin (tsv);
    CREATE INDEX IF NOT EXISTS search_documents_host ON search_documents (collection, host);
  `,
  // The tiered index (ranking/impacts.ts). search_terms holds one narrow row per document: the
  // filter columns and its tiered tokens as a tsvector without positions, stored out of line
  // (toast_tuple_target, STORAGE EXTERNAL), so that reading the documents of a GIN posting list
  // touches ~100 rows per heap page instead of ~3. The tokens are made in this process; the rows
  // are filled by rebuild() (index.ts), from version 1's documents too.
  2: `
    DROP INDEX IF EXISTS search_documents_tsv;
    ALTER TABLE search_documents DROP COLUMN IF EXISTS tsv;
    CREATE TABLE search_terms (
      id bigint PRIMARY KEY REFERENCES search_documents (id) ON DELETE CASCADE,
      collection text NOT NULL,
      host text NOT NULL,
      host_key text COLLATE "C" NOT NULL,
      published_ms bigint,
      tiers tsvector NOT NULL
    ) WITH (toast_tuple_target = 128);
    ALTER TABLE search_terms ALTER COLUMN tiers SET STORAGE EXTERNAL;
    CREATE INDEX search_terms_tiers ON search_terms USING gin (tiers);
    CREATE INDEX search_terms_host ON search_terms (host_key);
    CREATE INDEX search_terms_published ON search_terms (published_ms);
    CREATE TABLE search_token_counts (token text PRIMARY KEY, postings bigint NOT NULL);
    CREATE TABLE search_collections (collection text PRIMARY KEY, documents bigint NOT NULL);
  `,
  // Posting lists as blocks of ids (postings.ts) instead of the GIN index: the tsvector rows were
  // not stored out of line, so each posting read cost a heap page. The tsvector stays as each
  // document's own tokens (candidates are completed from it). The filter indexes carry the id, so
  // a selective filter's documents are read from the index alone (tiers.ts). Every document's
  // postings are computed again after this step (index.ts, rebuild).
  3: `
    DROP INDEX search_terms_tiers;
    DROP INDEX search_terms_host;
    DROP INDEX search_terms_published;
    CREATE INDEX search_terms_host ON search_terms (host_key, id);
    CREATE INDEX search_terms_published ON search_terms (published_ms, id);
    CREATE TABLE search_postings (
      token text COLLATE "C" NOT NULL,
      first bigint NOT NULL,
      ids bytea NOT NULL,
      PRIMARY KEY (token, first)
    );
    -- Uncompressed: ids compress poorly and a query reads tens of blocks.
    ALTER TABLE search_postings ALTER COLUMN ids SET STORAGE EXTERNAL;
  `,
  // The host index carries the date: a domain's documents since a cutoff are one index-only read.
  4: `
    DROP INDEX search_terms_host;
    CREATE INDEX search_terms_host ON search_terms (host_key, published_ms, id);
  `,
  // Each document's tiered tokens as plain space-separated text instead of a tsvector: a
  // candidate's row is sent as stored, where tsvector_out quoted every token (190 random rows at
  // 1M: 2.3 against 3.1 ms), and the row is a third smaller. Rows over ~2 KB are compressed in
  // line first (the type's default storage, toast_tuple_target back at its default), so a long
  // page's tokens seldom cost a read of the toast table. The table is rewritten once, here.
  5: `
    ALTER TABLE search_terms RESET (toast_tuple_target);
    ALTER TABLE search_terms ALTER COLUMN tiers TYPE text USING array_to_string(tsvector_to_array(tiers), ' ');
    ALTER TABLE search_terms RENAME COLUMN tiers TO tokens;
  `,
  // Who a collection belongs to, apart from its counts (which a rebuild recomputes). A collection
  // without a row here (every one made before this step) is the admin's.
  6: `
    CREATE TABLE search_collection_owners (collection text PRIMARY KEY, owner text NOT NULL);
  `,
};

/**
 * Applies the missing steps, then `afterwards` (in the same transaction, under the same lock) with
 * whether a step that changes how postings are kept ran: the index rebuilds its tiers there then
 * (a step that only changes an index does not need it).
 */
export async function migrate(
  pool: Pool,
  afterwards: (client: PoolClient, rebuild: boolean) => Promise<void>,
): Promise<void> {
  await inTransaction(pool, async (client) => {
    // Two processes starting together must not both run CREATE TABLE; the lock is per schema.
    await client.query("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.search_meta'))");
    await client.query('CREATE TABLE IF NOT EXISTS search_meta (key text PRIMARY KEY, value text NOT NULL)');
    const res = await client.query<{ value: string }>("SELECT value FROM search_meta WHERE key = 'schema_version'");
    const current = res.rows[0] ? Number(res.rows[0].value) : 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(`search index schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
    }
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      await client.query(MIGRATIONS[v]!);
      await client.query(
        `INSERT INTO search_meta (key, value) VALUES ('schema_version', $1)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [String(v)],
      );
    }
    await afterwards(client, current < LAST_REBUILDING_STEP);
  });
}
