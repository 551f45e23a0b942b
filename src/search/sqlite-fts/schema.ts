import type { Database } from 'better-sqlite3';

/** Bump with a new step in MIGRATIONS; applied steps are recorded in `search_meta`. */
export const SCHEMA_VERSION = 5;

// The index may share the store's database file, so everything is prefixed `search_` and the
// version lives in its own table rather than in `PRAGMA user_version`, which the store owns.
const MIGRATIONS: Record<number, string> = {
  1: `
    -- Filter columns first and content last: SQLite reads a row's columns in order, so filters
    -- then never walk past long content (which spills into overflow pages).
    CREATE TABLE IF NOT EXISTS search_documents (
      id INTEGER PRIMARY KEY,
      collection TEXT NOT NULL,
      host TEXT NOT NULL,
      published_ms INTEGER,
      url TEXT NOT NULL,
      site TEXT,
      published TEXT,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      UNIQUE (collection, url)
    );
    CREATE INDEX IF NOT EXISTS search_documents_host ON search_documents (collection, host);
    -- Contentless: the originals live in search_documents; the index holds the CJK-segmented text,
    -- which differs from the originals, so an external-content table could not rebuild itself.
    -- contentless_delete lets rows be deleted and replaced by rowid without their old values.
    CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5 (
      title, content,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
  `,
  // The tiered index (ranking/impacts.ts): FTS5 keeps only which documents hold each tiered token
  // (detail=none: no positions, no columns), the tokens are made in this process, and the
  // document row keeps its own tokens (the forward index that completes candidates' scores).
  // Version 1's rows are moved over by rebuild() (index.ts), which computes their tokens.
  2: `
    ALTER TABLE search_documents RENAME TO search_documents_v1;
    DROP INDEX IF EXISTS search_documents_host;
    DROP TABLE IF EXISTS search_fts;
    -- Filter columns and tokens first, content last: SQLite reads a row's columns in order, so
    -- completing a candidate never walks into long content (overflow pages).
    CREATE TABLE search_documents (
      id INTEGER PRIMARY KEY,
      collection TEXT NOT NULL,
      host TEXT NOT NULL,
      -- The host reversed ('com.example.www'): a domain and its subdomains are one index range.
      host_key TEXT NOT NULL,
      published_ms INTEGER,
      tokens TEXT NOT NULL,
      url TEXT NOT NULL,
      site TEXT,
      published TEXT,
      title TEXT NOT NULL,
      content TEXT NOT NULL,
      UNIQUE (collection, url)
    );
    CREATE INDEX search_documents_host ON search_documents (host_key);
    CREATE INDEX search_documents_published ON search_documents (published_ms);
    CREATE VIRTUAL TABLE search_tiers USING fts5 (
      tokens, content = '', contentless_delete = 1, detail = none,
      tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'"
    );
    -- Postings per tiered token: a stem's document frequency is the sum over its levels.
    CREATE TABLE search_token_counts (token TEXT PRIMARY KEY, postings INTEGER NOT NULL) WITHOUT ROWID;
    CREATE TABLE search_collections (collection TEXT PRIMARY KEY, documents INTEGER NOT NULL) WITHOUT ROWID;
  `,
  // Posting lists as blocks of ids (postings.ts) instead of FTS5: FTS5 returns one row per posting
  // (~120 ns each, most of a query's time). Dropping the 'ranking' note makes the index compute
  // every document's postings again on opening (index.ts, rebuild).
  3: `
    DROP TABLE search_tiers;
    CREATE TABLE search_postings (
      token TEXT NOT NULL,
      first INTEGER NOT NULL,
      ids BLOB NOT NULL,
      PRIMARY KEY (token, first)
    ) WITHOUT ROWID;
    DELETE FROM search_meta WHERE key = 'ranking';
  `,
  // A candidate's filter columns by id from an index alone (tier-reader.ts): the ones the filters
  // exclude are not read from their wide rows (about 3 against 5 µs a row at a million documents).
  // The host index carries the date: a domain's documents since a cutoff are one index read.
  4: `
    CREATE INDEX search_documents_filters ON search_documents (id, collection, host, published_ms);
    DROP INDEX search_documents_host;
    CREATE INDEX search_documents_host ON search_documents (host_key, published_ms);
  `,
  // Who a collection belongs to, apart from its counts (which a rebuild recomputes). A collection
  // without a row here (every one made before this step) is the admin's.
  5: `
    CREATE TABLE search_collection_owners (collection TEXT PRIMARY KEY, owner TEXT NOT NULL) WITHOUT ROWID;
  `,
};

/** Applies the missing steps; true when version 1's documents wait in search_documents_v1. */
export function migrate(db: Database): boolean {
  db.exec('CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const current = Number(readMeta(db, 'schema_version') ?? 0);
  if (current > SCHEMA_VERSION) {
    throw new Error(`search index schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
  }
  const apply = db.transaction(() => {
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!);
      writeMeta(db, 'schema_version', String(v));
    }
  });
  apply.immediate();
  const waiting = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'search_documents_v1'").get();
  return waiting !== undefined;
}

export function readMeta(db: Database, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM search_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMeta(db: Database, key: string, value: string): void {
  db.prepare('INSERT OR REPLACE INTO search_meta (key, value) VALUES (?, ?)').run(key, value);
}
