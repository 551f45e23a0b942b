import { describe, expect, it } from 'vitest';
import { BLOCK, change, type PostingChanges } from '../../src/search/ranking/posting-blocks.js';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';
import { SqlitePostings } from '../../src/search/sqlite-fts/postings.js';
import { SqliteDatabase as BetterSqlite3 } from '../../src/util/sqlite/driver.js';

/** A database with the index's tables, and its posting lists. */
function open() {
  const db = new BetterSqlite3(':memory:');
  new SqliteFtsIndex(db); // creates the tables
  return { db, postings: new SqlitePostings(db) };
}

const listOf = (postings: SqlitePostings, token: string) =>
  postings
    .read(token)
    .flatMap((ids) => [...ids])
    .sort((a, b) => a - b);

function apply(postings: SqlitePostings, edits: [string, number, 'add' | 'remove'][]): void {
  const changes: PostingChanges = new Map();
  for (const [token, id, kind] of edits) change(changes, [token], id, kind);
  postings.apply(changes);
}

describe('SQLite posting blocks', () => {
  it('keeps each list equal to its ids through appends, inserts, removals and splits', () => {
    const { db, postings } = open();
    const model = new Set<number>();
    // Appends in batches of several sizes: the last block is topped up, then split.
    for (let from = 1; from <= 5 * BLOCK; from += 700) {
      const ids = Array.from({ length: 700 }, (_, i) => from + i * 2); // odd and even ids in turns
      apply(
        postings,
        ids.map((id) => ['tok', id, 'add']),
      );
      for (const id of ids) model.add(id);
    }
    expect(listOf(postings, 'tok')).toEqual([...model].sort((a, b) => a - b));
    // Ids inside earlier blocks, before every block, and removals, including a block's first id.
    const firsts = db.prepare("SELECT first FROM search_postings WHERE token = 'tok' ORDER BY first").pluck().all();
    expect(firsts.length).toBeGreaterThan(1);
    const edits: [string, number, 'add' | 'remove'][] = [
      ['tok', 0, 'add'],
      ['tok', 2 * BLOCK + 2, 'add'],
      ['tok', firsts[1] as number, 'remove'],
      ['tok', 3, 'remove'],
      ['tok', 999_999, 'remove'], // absent: nothing happens
    ];
    apply(postings, edits);
    model.add(0).add(2 * BLOCK + 2);
    model.delete(firsts[1] as number);
    model.delete(3);
    expect(listOf(postings, 'tok')).toEqual([...model].sort((a, b) => a - b));
    // No block holds more than twice BLOCK ids, and no empty block is left behind.
    const sizes = db
      .prepare("SELECT length(ids) / 4 FROM search_postings WHERE token = 'tok'")
      .pluck()
      .all() as number[];
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * BLOCK);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
    db.close();
  });

  it('leaves an id that one write both removes and adds where it was', () => {
    const { db, postings } = open();
    apply(postings, [
      ['a', 5, 'add'],
      ['a', 9, 'add'],
    ]);
    apply(postings, [
      ['a', 5, 'remove'],
      ['a', 5, 'add'],
      ['a', 9, 'remove'],
    ]);
    expect(listOf(postings, 'a')).toEqual([5]);
    apply(postings, [['a', 5, 'remove']]);
    expect(listOf(postings, 'a')).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM search_postings').pluck().get()).toBe(0);
    db.close();
  });

  it('finds a document by its new words only after an update, and not after removal', async () => {
    const db = new BetterSqlite3(':memory:');
    const index = new SqliteFtsIndex(db);
    const url = 'https://a.example/page';
    await index.upsert([{ url, title: 'Glaciers', content: 'Ice moves slowly down the valley.' }]);
    await index.upsert([{ url, title: 'Volcanoes', content: 'Lava moves slowly down the slope.' }]);
    expect(await index.query({ text: 'glacier', count: 5 })).toEqual([]);
    expect((await index.query({ text: 'volcano lava', count: 5 })).map((h) => h.url)).toEqual([url]);
    expect((await index.query({ text: 'moves slowly', count: 5 })).map((h) => h.url)).toEqual([url]);
    await index.remove([url]);
    expect(await index.query({ text: 'lava', count: 5 })).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM search_postings').pluck().get()).toBe(0);
    db.close();
  });
});
