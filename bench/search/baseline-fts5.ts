/**
 * Today's ranking, kept as the baseline of the search benchmark: the SQLite index as it was before
 * the tiered index (schema version 1): FTS5 with porter stemming and bm25() over every match,
 * title weight 2, the collection's own average length. Write and query paths only, as they were.
 */
import type { Database, Statement } from 'better-sqlite3';
import { prepareDocument } from '../../src/search/text/document.js';
import { normaliseDomain, recencyCutoff } from '../../src/search/text/filters.js';
import { queryTerms } from '../../src/search/text/query-terms.js';
import type { SearchDocument, SearchQuery } from '../../src/search/types.js';
import { SqliteDatabase as BetterSqlite3 } from '../../src/util/sqlite/driver.js';

/** Version 1's MATCH expression: every term quoted, OR-ed. */
const ftsMatch = (terms: string[]) => terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS search_documents (
    id INTEGER PRIMARY KEY, collection TEXT NOT NULL, host TEXT NOT NULL, published_ms INTEGER,
    url TEXT NOT NULL, site TEXT, published TEXT, title TEXT NOT NULL, content TEXT NOT NULL,
    UNIQUE (collection, url));
  CREATE INDEX IF NOT EXISTS search_documents_host ON search_documents (collection, host);
  CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5 (title, content, content = '', contentless_delete = 1,
    tokenize = 'porter unicode61 remove_diacritics 2');`;

const QUERY = (window: string) =>
  `SELECT d.url, f.score
   FROM (SELECT rowid AS id, -bm25(search_fts, 2.0, 1.0) AS score
         FROM search_fts WHERE search_fts MATCH @match ORDER BY score DESC LIMIT ${window}) f
   JOIN search_documents d ON d.id = f.id
   WHERE d.collection = 'web'
     AND (@domain IS NULL OR d.host = @domain OR substr(d.host, -length(@domain) - 1) = '.' || @domain)
     AND (@cutoff IS NULL OR d.published_ms >= @cutoff)
   ORDER BY f.score DESC LIMIT @count`;

export class BaselineFts5 {
  readonly #db: Database;
  readonly #window: Statement;
  readonly #all: Statement;

  constructor(file: string) {
    this.#db = new BetterSqlite3(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.exec(SCHEMA);
    this.#window = this.#db.prepare(QUERY('@window'));
    this.#all = this.#db.prepare(QUERY('-1'));
  }

  upsert(docs: SearchDocument[]): void {
    const insert = this.#db.prepare(
      `INSERT INTO search_documents (collection, url, title, content, site, host, published, published_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const fts = this.#db.prepare('INSERT INTO search_fts (rowid, title, content) VALUES (?, ?, ?)');
    this.#db
      .transaction(() => {
        for (const d of docs.map(prepareDocument)) {
          const info = insert.run(d.collection, d.url, d.title, d.content, d.site, d.host, d.published, d.publishedMs);
          fts.run(info.lastInsertRowid, d.indexTitle, d.indexContent);
        }
      })
      .immediate();
  }

  /** Urls of the best `count` matches, as the version 1 index answered. */
  query(q: SearchQuery): string[] {
    const terms = queryTerms(q.text);
    if (terms.length === 0) return [];
    const params = {
      match: ftsMatch(terms),
      domain: normaliseDomain(q.domain) ?? null,
      cutoff: recencyCutoff(q.recency, q.now) ?? null,
      count: q.count,
    };
    let rows = this.#window.all({ ...params, window: Math.max(200, q.count * 4) }) as { url: string }[];
    if (rows.length < q.count) rows = this.#all.all(params) as { url: string }[];
    return rows.map((r) => r.url);
  }

  close(): void {
    this.#db.close();
  }
}
