import type { Database, Statement } from 'better-sqlite3';
import {
  appended,
  blockBytes,
  blockIds,
  netChange,
  type PostingChanges,
  splitBlock,
  withId,
  withoutId,
} from '../ranking/posting-blocks.js';

/**
 * The tiered index's posting lists on SQLite (ranking/posting-blocks.ts): for each tiered token,
 * blocks of sorted document ids, one row each. Reading a list is then one row per block and a
 * typed-array view of it, ~2-3 ns a posting, where FTS5 (version 2 of the schema) returned one
 * row per posting through its virtual table, ~120 ns each.
 *
 * A write touches only the blocks its changes fall in: new documents take the next ids, so they
 * almost always go to the end of the last block, which is rewritten with them until it passes
 * 2·BLOCK ids and is split. Topping up (rather than a block per write) keeps a rare token's list
 * in one row whatever the batch size: the crawler writes one page at a time.
 */

interface BlockRow {
  first: number;
  ids: Buffer;
}

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
      const { add, remove } = netChange(changes.get(token)!);
      for (const id of remove) {
        const row = this.#covering.get(token, id);
        if (row) this.#write(token, row.first, withoutId(blockIds(row.ids), id));
      }
      if (add.length > 0) this.#add(token, add);
    }
  }

  /** Adds sorted ids: appended to the last block when all are past it, else one by one. */
  #add(token: string, ids: number[]): void {
    const last = this.#last.get(token);
    const tail = last && blockIds(last.ids);
    if (!last || !tail || ids[0]! > tail[tail.length - 1]!) {
      this.#write(token, last?.first, appended(tail, ids));
      return;
    }
    for (const id of ids) {
      // Before every block: it joins the first one (whose key then changes).
      const row = this.#covering.get(token, id) ?? this.#firstBlock.get(token)!;
      this.#write(token, row.first, withId(blockIds(row.ids), id));
    }
  }

  /** Replaces the block keyed `first` (if any) with `ids`. */
  #write(token: string, first: number | undefined, ids: Uint32Array): void {
    if (first !== undefined && ids[0] !== first) this.#drop.run(token, first);
    for (const part of splitBlock(ids)) this.#put.run(token, part[0]!, blockBytes(part));
  }
}
