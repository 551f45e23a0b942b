import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresFtsIndex } from '../../src/search/postgres-fts/index.js';
import { applyPostings, readBlocks } from '../../src/search/postgres-fts/postings.js';
import { BLOCK, change, type PostingChanges } from '../../src/search/ranking/posting-blocks.js';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `t_${randomBytes(6).toString('hex')}`;
let pool: pg.Pool;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 2 });
  await PostgresFtsIndex.create(pool); // creates the tables
});

afterAll(async () => {
  await pool.end();
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
});

async function apply(edits: [string, number, 'add' | 'remove'][]): Promise<void> {
  const changes: PostingChanges = new Map();
  for (const [token, id, kind] of edits) change(changes, [token], id, kind);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await applyPostings(client, changes);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

const listOf = async (token: string) =>
  (await readBlocks(pool, [token])).flatMap((b) => [...b.ids]).sort((a, b) => a - b);

describe('PostgreSQL posting blocks', () => {
  it('keeps each list equal to its ids through appends, inserts, removals and splits', async () => {
    const model = new Set<number>();
    for (let from = 1; from <= 5 * BLOCK; from += 700) {
      const ids = Array.from({ length: 700 }, (_, i) => from + i * 2);
      await apply(ids.map((id) => ['tok', id, 'add']));
      for (const id of ids) model.add(id);
    }
    expect(await listOf('tok')).toEqual([...model].sort((a, b) => a - b));
    const firsts = (await pool.query("SELECT first FROM search_postings WHERE token = 'tok' ORDER BY first")).rows.map(
      (r: { first: string }) => Number(r.first),
    );
    expect(firsts.length).toBeGreaterThan(1);
    await apply([
      ['tok', 0, 'add'],
      ['tok', 2 * BLOCK + 2, 'add'],
      ['tok', firsts[1]!, 'remove'],
      ['tok', 3, 'remove'],
      ['tok', 999_999, 'remove'],
      ['other', 4, 'add'],
    ]);
    model.add(0).add(2 * BLOCK + 2);
    model.delete(firsts[1]!);
    model.delete(3);
    expect(await listOf('tok')).toEqual([...model].sort((a, b) => a - b));
    expect(await listOf('other')).toEqual([4]);
    const sizes = (await pool.query("SELECT length(ids) / 4 AS n FROM search_postings WHERE token = 'tok'")).rows.map(
      (r: { n: number }) => r.n,
    );
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * BLOCK);
    expect(Math.min(...sizes)).toBeGreaterThan(0);
  });

  it('leaves an id that one write both removes and adds where it was, and drops emptied blocks', async () => {
    await apply([
      ['a', 5, 'add'],
      ['a', 9, 'add'],
    ]);
    await apply([
      ['a', 5, 'remove'],
      ['a', 5, 'add'],
      ['a', 9, 'remove'],
    ]);
    expect(await listOf('a')).toEqual([5]);
    await apply([['a', 5, 'remove']]);
    expect(await listOf('a')).toEqual([]);
    expect((await pool.query("SELECT count(*)::int AS n FROM search_postings WHERE token = 'a'")).rows[0].n).toBe(0);
  });
});
