/**
 * The FTS5 MATCH expression for plain terms. Every term is a double-quoted string (quotes inside
 * doubled), so no user text is ever read as FTS5 syntax (NEAR, AND, column filters, `*`, `^`).
 * Terms are OR-ed so that BM25 ranks partial matches instead of an AND dropping them.
 */
export function ftsMatch(terms: string[]): string {
  return terms.map((t) => `"${t.replaceAll('"', '""')}"`).join(' OR ');
}
