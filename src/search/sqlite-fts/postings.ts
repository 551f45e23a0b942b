import type { Database, Statement } from 'better-sqlite3';

/**
 * The tiered index's posting lists on SQLite: for each tiered token, the ids of the documents
 * that hold it, sorted, in blocks of up to BLOCK ids stored as one blob each (uint32, the
 * platform's byte order: little-endian everywhere Node runs). Reading a list is then one row per
 * block and a typed-array view of it, ~2-3 ns a posting, where FTS5 (version 2 of the schema)
 * returned one row per posting through its virtual table, ~120 ns each.
 *
 * Writes gather a transaction's changes per token and touch only the blocks that hold them: new
 * documents take the next ids, so they almost always go to the end of the last block, which is
 * rewritten with them until it passes 2·BLOCK ids and is split into blocks of BLOCK. Topping up
 * (rather than a block per write) keeps a rare token's list in one row whatever the batch size:
 * the crawler writes one page at a time.
 */

/** Ids per block: a common token's list at 1M documents is ~1,000 rows; topping up rewrites ≤ 8 KB. */
export const BLOCK = 1024;

interface BlockRow {
  first: number;
  ids: Buffer;
}

/** Each token's ids to add and remove in one write. */
export type PostingChanges = Map<string, { add: number[]; remove: number[] }>;

export function change(changes: PostingChanges, tokens: Iterable<string>, id: number, kind: 'add' | 'remove'): void {
  for (const token of tokens) {
    if (token === '') continue;
    let c = changes.get(token);
    if (!c) {
      c = { add: [], remove: [] };
      changes.set(token, c);
    }
    c[kind].push(id);
  }
}

/** A block's ids as a typed array; copied only when the blob is not 4-byte aligned. */
export function blockIds(blob: Buffer): Uint32Array {
  if (blob.byteOffset % 4 === 0) return new Uint32Array(blob.buffer, blob.byteOffset, blob.byteLength >> 2);
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Uint32Array(copy.buffer);
}

const blob = (ids: Uint32Array) => Buffer.from(ids.buffer, ids.byteOffset, ids.byteLength);

export class SqlitePostings {
  readonly #list: Statement<[string], Buffer>;
  readonly #last: Statement<[string], BlockRow>;
  readonly #covering: Statement<[string, number], BlockRow>;
  readonly #firstBlock: Statement<[string], BlockRow>;
  readonly #put: Statement<[string, number, Buffer]>;
  readonly #drop: Statement<[string, number]>;

  constructor(db: Database) {
    this.#list = db.prepare<[string], Buffer>('SELECT ids FROM search_postings WHERE token = ?').pluck();
    this.#last = db.prepare('SELECT first, ids FROM search_postings WHERE token = ? ORDER BY first DESC LIMIT 1');
    // The block an id belongs in: the last one starting at or before it.
    this.#covering = db.prepare(
      'SELECT first, ids FROM search_postings WHERE token = ? AND first <= ? ORDER BY first DESC LIMIT 1',
    );
    this.#firstBlock = db.prepare('SELECT first, ids FROM search_postings WHERE token = ? ORDER BY first LIMIT 1');
    this.#put = db.prepare('INSERT OR REPLACE INTO search_postings (token, first, ids) VALUES (?, ?, ?)');
    this.#drop = db.prepare('DELETE FROM search_postings WHERE token = ? AND first = ?');
  }

  /** The token's blocks, in no particular order (ranking sums per document). */
  read(token: string): Uint32Array[] {
    return this.#list.all(token).map(blockIds);
  }

  /** Applies a write's changes; call inside its transaction. */
  apply(changes: PostingChanges): void {
    // Token order: B-tree writes in key order touch each page once.
    for (const token of [...changes.keys()].sort()) {
      const { add, remove } = changes.get(token)!;
      const removed = new Set(remove);
      const added = add.filter((id) => !removed.delete(id)).sort((a, b) => a - b); // unchanged ids stay put
      for (const id of removed) this.#removeOne(token, id);
      if (added.length > 0) this.#add(token, added);
    }
  }

  /** Adds sorted ids: appended to the last block when all are past it, else one by one. */
  #add(token: string, ids: number[]): void {
    const last = this.#last.get(token);
    const tail = last ? blockIds(last.ids) : undefined;
    if (!last || !tail || ids[0]! > tail[tail.length - 1]!) {
      const merged = new Uint32Array((tail?.length ?? 0) + ids.length);
      if (tail) merged.set(tail);
      merged.set(ids, tail?.length ?? 0);
      this.#write(token, last?.first, merged);
      return;
    }
    for (const id of ids) this.#insertOne(token, id);
  }

  #insertOne(token: string, id: number): void {
    // Before every block: it joins the first one (whose key then changes).
    const row = this.#covering.get(token, id) ?? this.#firstBlock.get(token)!;
    const ids = blockIds(row.ids);
    let at = 0;
    while (at < ids.length && ids[at]! < id) at++;
    if (ids[at] === id) return;
    const next = new Uint32Array(ids.length + 1);
    next.set(ids.subarray(0, at));
    next[at] = id;
    next.set(ids.subarray(at), at + 1);
    this.#write(token, row.first, next);
  }

  #removeOne(token: string, id: number): void {
    const row = this.#covering.get(token, id);
    if (!row) return;
    const ids = blockIds(row.ids);
    const at = ids.indexOf(id);
    if (at < 0) return;
    const next = new Uint32Array(ids.length - 1);
    next.set(ids.subarray(0, at));
    next.set(ids.subarray(at + 1), at);
    this.#write(token, row.first, next);
  }

  /** Replaces the block keyed `first` (if any) with `ids`, split into blocks of BLOCK when it grew past twice that. */
  #write(token: string, first: number | undefined, ids: Uint32Array): void {
    if (ids.length === 0 || (first !== undefined && ids[0] !== first)) {
      if (first !== undefined) this.#drop.run(token, first);
    }
    if (ids.length === 0) return;
    const size = ids.length > 2 * BLOCK ? BLOCK : ids.length;
    for (let from = 0; from < ids.length; from += size) {
      const part = ids.slice(from, from + size);
      this.#put.run(token, part[0]!, blob(part));
    }
  }
}
