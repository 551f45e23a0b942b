import { hostInDomain } from '../text/filters.js';

/** A query's filters, normalised (text/filters.ts). */
export interface QueryFilter {
  collections: string[];
  /** A bare domain: that host and its subdomains. */
  domain: string | null;
  /** Earliest publish time (ms) that passes; undated documents never pass. */
  cutoff: number | null;
}

export function passesFilter(
  filter: QueryFilter,
  doc: { collection: string; host: string; publishedMs: number | null },
): boolean {
  return (
    filter.collections.includes(doc.collection) &&
    (filter.domain === null || hostInDomain(doc.host, filter.domain)) &&
    (filter.cutoff === null || (doc.publishedMs !== null && doc.publishedMs >= filter.cutoff))
  );
}

/**
 * Whether the filters may exclude many candidates (a domain, a recency window, some collections
 * only): candidates are then checked on their filter columns before their tokens are read.
 */
export function excludesMany(filter: QueryFilter, collections: ReadonlyMap<string, number>): boolean {
  if (filter.domain !== null || filter.cutoff !== null) return true;
  for (const name of collections.keys()) if (!filter.collections.includes(name)) return true;
  return false;
}
