import type { Pool, PoolClient } from 'pg';
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
 * The tiered index's posting lists on PostgreSQL, as on SQLite (ranking/posting-blocks.ts): blocks
 * of sorted document ids, one row each. Schema 2 read them through a GIN index, and each posting
 * then cost a heap page: a row with its ~1 KB tsvector stays in line (PostgreSQL moves values out
 * only from rows over ~2 KB, whatever toast_tuple_target says), ~8 rows a page, so 30,000
 * postings visited ~25,000 pages. A block is one row for up to 2,048 postings.
 *
 * A write reads, in one statement, every block its changes fall in (the last block of each token
 * it adds to, the block of each id it removes or inserts in the middle), edits them here and
 * writes them back in one statement (two when a block's first id changed). Writers hold the
 * index's write lock (index.ts).
 */

const LAST_BLOCKS = `
  SELECT b.token, b.first, b.ids FROM unnest($1::text[]) AS x(token)
  CROSS JOIN LATERAL (SELECT token, first, ids FROM search_postings p WHERE p.token = x.token
                      ORDER BY first DESC LIMIT 1) b`;

// The block an id belongs in: the last one starting at or before it, else the token's first
// (each one index probe).
const COVERING_BLOCKS = `
  SELECT DISTINCT b.token, b.first, b.ids FROM unnest($1::text[], $2::bigint[]) AS x(token, id)
  CROSS JOIN LATERAL (SELECT coalesce(
    (SELECT first FROM search_postings p WHERE p.token = x.token AND p.first <= x.id ORDER BY first DESC LIMIT 1),
    (SELECT first FROM search_postings p WHERE p.token = x.token ORDER BY first LIMIT 1)) AS first) f
  JOIN search_postings b ON b.token = x.token AND b.first = f.first`;

// Only blocks whose first id changed or that emptied are deleted (rare): the common edit, ids
// appended to a token's last block, keeps its key and is written over in place.
const DROP_BLOCKS = `
  DELETE FROM search_postings p USING unnest($1::text[], $2::bigint[]) AS x(token, first)
  WHERE p.token = x.token AND p.first = x.first`;
const PUT_BLOCKS = `
  INSERT INTO search_postings (token, first, ids) SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[])
  ON CONFLICT (token, first) DO UPDATE SET ids = excluded.ids`;

interface BlockRow {
  token: string;
  first: string;
  ids: Buffer;
}

/** The blocks of the tokens, as (token, ids) rows. */
export async function readBlocks(pool: Pool, tokens: string[]): Promise<{ token: string; ids: Uint32Array }[]> {
  const res = await pool.query<{ token: string; ids: Buffer }>(
    'SELECT token, ids FROM search_postings WHERE token = ANY($1::text[])',
    [tokens],
  );
  return res.rows.map((r) => ({ token: r.token, ids: blockIds(r.ids) }));
}

/** Applies a write's changes in its transaction. */
export async function applyPostings(client: PoolClient, changes: PostingChanges): Promise<void> {
  const nets = [...changes].map(([token, c]) => ({ token, ...netChange(c) }));
  // Every block an edit may touch, by token and first id.
  const blocks = new Map<string, Map<number, Uint32Array>>();
  const load = (rows: BlockRow[]) => {
    for (const r of rows) {
      if (!blocks.has(r.token)) blocks.set(r.token, new Map());
      blocks.get(r.token)!.set(Number(r.first), blockIds(r.ids));
    }
  };
  const adding = nets.filter((n) => n.add.length > 0).map((n) => n.token);
  if (adding.length > 0) load((await client.query<BlockRow>(LAST_BLOCKS, [adding])).rows);
  const lastOf = (token: string) => {
    const mine = blocks.get(token);
    return mine ? Math.max(...mine.keys()) : undefined;
  };
  // Ids not past the last block: removals, and additions in the middle (a document updated).
  const inside: [string, number][] = [];
  for (const n of nets) {
    for (const id of n.remove) inside.push([n.token, id]);
    const last = lastOf(n.token);
    const tail = last === undefined ? undefined : blocks.get(n.token)!.get(last)!;
    if (tail && n.add.length > 0 && n.add[0]! <= tail[tail.length - 1]!) {
      for (const id of n.add) inside.push([n.token, id]);
    }
  }
  if (inside.length > 0) {
    load((await client.query<BlockRow>(COVERING_BLOCKS, [inside.map((x) => x[0]), inside.map((x) => x[1])])).rows);
  }

  const dropped: [string, number][] = [];
  const written: [string, Uint32Array][] = [];
  for (const n of nets) {
    const mine = blocks.get(n.token) ?? new Map<number, Uint32Array>();
    const edited = new Map<number, Uint32Array>(); // by the key the block had when read
    const current = (first: number) => edited.get(first) ?? mine.get(first)!;
    const covering = (id: number) => {
      const keys = [...mine.keys()];
      const at = keys.filter((k) => k <= id);
      return at.length > 0 ? Math.max(...at) : Math.min(...keys);
    };
    for (const id of n.remove) if (mine.size > 0) edited.set(covering(id), withoutId(current(covering(id)), id));
    if (n.add.length > 0) {
      const last = lastOf(n.token);
      const tail = last === undefined ? undefined : current(last);
      if (last === undefined || !tail || tail.length === 0 || n.add[0]! > tail[tail.length - 1]!) {
        if (last === undefined) written.push([n.token, appended(undefined, n.add)]);
        else edited.set(last, appended(tail, n.add));
      } else {
        for (const id of n.add) edited.set(covering(id), withId(current(covering(id)), id));
      }
    }
    for (const [first, ids] of edited) {
      if (ids[0] !== first) dropped.push([n.token, first]);
      written.push([n.token, ids]);
    }
  }
  if (dropped.length > 0) await client.query(DROP_BLOCKS, [dropped.map((d) => d[0]), dropped.map((d) => d[1])]);
  const rows = written.flatMap(([token, ids]) => splitBlock(ids).map((part) => ({ token, part })));
  if (rows.length > 0) {
    await client.query(PUT_BLOCKS, [
      rows.map((r) => r.token),
      rows.map((r) => r.part[0]!),
      rows.map((r) => blockBytes(r.part)),
    ]);
  }
}
