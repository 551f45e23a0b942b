import { storeFault } from '../faults.js';
import type { KeyRecord } from '../types.js';

interface Entry {
  row: KeyRecord;
  /** When the row was read (performance.now()). */
  at: number;
}

export interface KeyRowCacheOptions {
  /** A row is read again after this long even if no notification came (lost ones included). */
  ttlMs: number;
  /** While the database cannot be reached, a row read less than this long ago still serves. */
  staleMs: number;
  /**
   * True while the database is known to be unreachable: a row within `staleMs` is then served
   * without trying (a server that does not answer would hold each request for the pool timeout).
   */
  databaseDown?: () => boolean;
  now?: () => number;
}

/**
 * Key rows read on every request. While the change listener is connected (`live`), a row is
 * served from here until a notification says it changed or its TTL runs out, so a lost
 * notification delays a revocation by the TTL at most. While it is not, every read goes to the
 * store. Either way, a read that fails because the database is unreachable falls back to the
 * row last read, up to `staleMs` old: requests with a known key keep working through an outage.
 */
export class KeyRowCache {
  private readonly rows = new Map<string, Entry>();
  /** Bumped by every invalidation, so a read that raced one is not cached. */
  private generation = 0;
  /** Rows read before this time are not served as hits (read while no one listened), only as fallback. */
  private validFrom = Number.NEGATIVE_INFINITY;
  private live = false;
  private readonly now: () => number;

  constructor(private readonly options: KeyRowCacheOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  async get(id: string, load: (id: string) => Promise<KeyRecord | undefined>): Promise<KeyRecord | undefined> {
    const hit = this.rows.get(id);
    const now = this.now();
    if (hit && this.live && hit.at >= this.validFrom && now - hit.at < this.options.ttlMs) return hit.row;
    if (hit && now - hit.at < this.options.staleMs && this.options.databaseDown?.()) return hit.row;
    const started = this.generation;
    let row: KeyRecord | undefined;
    try {
      row = await load(id);
    } catch (err) {
      if (hit && now - hit.at < this.options.staleMs && storeFault(err)) return hit.row;
      throw err;
    }
    if (started !== this.generation) return row;
    // Unknown ids (guessed keys) are not remembered, so they cannot grow the cache. The same row
    // object is kept while unchanged, which lets the key service skip hashing the secret again.
    if (!row) this.rows.delete(id);
    else if (hit && sameRow(hit.row, row)) {
      hit.at = this.now();
      return hit.row;
    } else if (this.rows.size < 10_000 || hit) this.rows.set(id, { row, at: this.now() });
    return row;
  }

  forget(id: string): void {
    this.generation++;
    this.rows.delete(id);
  }

  /** The listener connected (rows read before are read again first) or lost its connection. */
  setLive(live: boolean): void {
    this.generation++;
    if (live) this.validFrom = this.now();
    this.live = live;
  }
}

function sameRow(a: KeyRecord, b: KeyRecord): boolean {
  return (
    a.revokedAt === b.revokedAt &&
    a.name === b.name &&
    a.secretHash === b.secretHash &&
    a.secretEncrypted === b.secretEncrypted &&
    a.role === b.role &&
    a.endpoints.join() === b.endpoints.join() &&
    JSON.stringify(a.limits) === JSON.stringify(b.limits) &&
    JSON.stringify(a.policy) === JSON.stringify(b.policy) &&
    JSON.stringify(a.previous) === JSON.stringify(b.previous)
  );
}
