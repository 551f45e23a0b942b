import { hostKey } from '../text/filters.js';
import type { QueryFilter } from './query-filter.js';

/**
 * A filter that passes at most this many documents is applied while scores are added up (only its
 * documents are scored); a broader one is checked on the candidates, most of which pass it anyway.
 */
export const RESTRICT_MAX = 20_000;

/** How long a filter found to pass more than RESTRICT_MAX documents is not read again. */
const BROAD_FOR_MS = 60_000;
const BROAD_KEYS_MAX = 1_000;
const HOUR_MS = 3_600_000;

/**
 * The filters recently found too broad to restrict the scoring, so that their ids are not read
 * again (up to RESTRICT_MAX + 1 of them, a few ms at a million documents) on every query that uses
 * them. It only chooses how a filter is applied, never what passes it: a filter wrongly taken for
 * broad is checked on the candidates instead. Keys hold a cutoff to the hour.
 */
export class BroadFilters {
  readonly #until = new Map<string, number>();

  has(key: string, now: number): boolean {
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    this.#until.delete(key);
    return false;
  }

  add(key: string, now: number): void {
    this.#until.delete(key);
    // Oldest out first (a Map keeps insertion order).
    if (this.#until.size >= BROAD_KEYS_MAX) this.#until.delete(this.#until.keys().next().value!);
    this.#until.set(key, now + BROAD_FOR_MS);
  }
}

/** One filter's id read, in the backend's SQL: its statement (without a LIMIT) and parameters. */
export interface IdRead {
  sql: string;
  params: unknown[];
}

/** A read with the filter it applies and a key for BroadFilters. */
export interface RestrictionRead extends IdRead {
  by: RestrictedBy;
  key: string;
}

/** Which filter a read restricts the scoring to. */
export type RestrictedBy = 'domain' | 'domain and since' | 'collections' | 'since';

/** The documents the scoring is restricted to, and by which filter. */
export interface Restriction {
  ids: readonly number[];
  allowed: (id: number) => boolean;
  by: RestrictedBy;
}

/** How a backend reads the ids one filter passes, each from an index that carries them. */
export interface RestrictionSql {
  /**
   * A host key and its subdomains: `key` itself, and keys strictly between `above` and `below`;
   * with a cutoff, only their documents published since (from the same index).
   */
  domain(key: string, above: string, below: string, cutoff: number | null): IdRead;
  collections(names: string[]): IdRead;
  since(cutoff: number): IdRead;
}

/**
 * The id reads that may restrict the scoring, most selective kinds first: the domain (with the
 * recency cutoff when there is one: a site's recent pages are often few where each filter alone
 * passes too many), the collections when they are a part of the index of at most RESTRICT_MAX
 * documents, the recency cutoff. The caller reads each with `LIMIT RESTRICT_MAX + 1` and uses the
 * first that fits.
 */
export function restrictionReads(
  filter: QueryFilter,
  collections: Map<string, number>,
  sql: RestrictionSql,
): RestrictionRead[] {
  const reads: RestrictionRead[] = [];
  const hour = (cutoff: number) => Math.floor(cutoff / HOUR_MS);
  if (filter.domain !== null) {
    // The domain and its subdomains exactly: 'com.example' and 'com.example.*' (not 'com.example-x').
    const key = hostKey(filter.domain);
    const read = sql.domain(key, `${key}.`, `${key}/`, filter.cutoff);
    if (filter.cutoff === null) reads.push({ ...read, by: 'domain', key: `domain ${key}` });
    else reads.push({ ...read, by: 'domain and since', key: `domain ${key} since ${hour(filter.cutoff)}` });
  }
  const wanted = filter.collections.reduce((sum, c) => sum + (collections.get(c) ?? 0), 0);
  const total = [...collections.values()].reduce((a, b) => a + b, 0);
  if (wanted < total && wanted <= RESTRICT_MAX)
    reads.push({
      ...sql.collections(filter.collections),
      by: 'collections',
      key: `collections ${JSON.stringify([...filter.collections].sort())}`,
    });
  if (filter.cutoff !== null) {
    reads.push({ ...sql.since(filter.cutoff), by: 'since', key: `since ${hour(filter.cutoff)}` });
  }
  return reads;
}

/** A membership test over ids: a byte per id up to the largest, so a test is one array read per posting. */
export function membership(ids: readonly number[]): (id: number) => boolean {
  let max = 0;
  for (const id of ids) if (id > max) max = id;
  const members = new Uint8Array(max + 1);
  for (const id of ids) members[id] = 1;
  return (id) => members[id] === 1;
}

/** The filters a restriction leaves for the candidates to be checked on. */
export function leftAfter(
  filter: QueryFilter,
  by: RestrictedBy,
  collections: ReadonlyMap<string, number>,
): QueryFilter {
  if (by === 'domain') return { ...filter, domain: null };
  if (by === 'domain and since') return { ...filter, domain: null, cutoff: null };
  if (by === 'since') return { ...filter, cutoff: null };
  return { ...filter, collections: [...collections.keys()] };
}
