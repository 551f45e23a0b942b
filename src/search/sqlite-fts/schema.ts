import type { Database } from 'better-sqlite3';

/** Bump with a new step in MIGRATIONS; applied steps are recorded in `search_meta`. */
export const SCHEMA_VERSION = 1;

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
};

export function migrate(db: Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS search_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const row = db.prepare("SELECT value FROM search_meta WHERE key = 'schema_version'").get() as
    | { value: string }
    | undefined;
  const current = row ? Number(row.value) : 0;
  if (current > SCHEMA_VERSION) {
    throw new Error(`search index schema version ${current} is newer than this build (${SCHEMA_VERSION})`);
  }
  const apply = db.transaction(() => {
    for (let v = current + 1; v <= SCHEMA_VERSION; v++) {
      db.exec(MIGRATIONS[v]!);
      db.prepare("INSERT OR REPLACE INTO search_meta (key, value) VALUES ('schema_version', ?)").run(String(v));
    }
  });
  apply.immediate();
}
