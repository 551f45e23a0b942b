/**
 * The ranking query. PostgreSQL's ts_rank has no inverse document frequency, so a common word
 * counts as much as a rare one; we add it: each term's ts_rank (a saturating, length-normalised
 * term frequency with the A/B field weights) is multiplied by its BM25 idf, computed from GIN
 * counts at query time. Terms are bound parameters passed through plainto_tsquery, which reads no
 * operators: user text never reaches tsquery syntax.
 */

// ts_rank weights {D, C, B, A}, each at most 1: title (A) is 1 and content (B) 1/titleWeight,
// which ranks the same as title = titleWeight, content = 1.
export const rankWeights = (titleWeight: number) =>
  `'{0.1, 0.2, ${Math.min(1, 1 / titleWeight).toFixed(4)}, 1.0}'::float4[]`;

export function rankingSql(termCount: number, titleWeight: number): string {
  const terms = Array.from({ length: termCount }, (_, i) => i);
  // $1 collections, $2 domain, $3 cutoff, $4 count, $5.. terms
  const tsq = terms.map((i) => `plainto_tsquery('english', $${i + 5}) AS q${i}`).join(', ');
  const df = terms
    .map((i) => `(SELECT count(*) FROM search_documents WHERE collection = ANY($1) AND tsv @@ t.q${i}) AS df${i}`)
    .join(', ');
  const score = terms
    .map(
      (i) =>
        `ln(1 + (s.n - s.df${i} + 0.5) / (s.df${i} + 0.5)) * ts_rank(${rankWeights(titleWeight)}, d.tsv, t.q${i}, 1)`,
    )
    .join(' + ');
  const any = terms.map((i) => `t.q${i}`).join(' || ');
  return `
    WITH t AS (SELECT ${tsq}),
    s AS (SELECT (SELECT count(*) FROM search_documents WHERE collection = ANY($1))::float8 AS n, ${df} FROM t)
    SELECT d.url, d.title, d.content, d.site, d.host, d.published, (${score})::float8 AS score
    FROM search_documents d, t, s
    WHERE d.collection = ANY($1) AND d.tsv @@ (${any})
      AND ($2::text IS NULL OR d.host = $2 OR right(d.host, length($2) + 1) = '.' || $2)
      AND ($3::bigint IS NULL OR d.published_ms >= $3)
    ORDER BY score DESC, d.id
    LIMIT $4`;
}
