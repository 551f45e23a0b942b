import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importJsonl } from '../../src/search/import-jsonl.js';
import { SqliteFtsIndex } from '../../src/search/sqlite-fts/index.js';

let dir: string;
let index: SqliteFtsIndex;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-import-'));
  index = new SqliteFtsIndex(join(dir, 'index.db'));
});
afterEach(async () => {
  await index.close();
  rmSync(dir, { recursive: true, force: true });
});

const line = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    url: `https://site${i % 3}.example/p${i}`,
    title: `Page ${i}`,
    content: `body number ${i}`,
    ...extra,
  });

describe('JSONL import', () => {
  it('imports in batches, reports bad lines and goes on', async () => {
    const lines = [
      `\uFEFF${line(1, { published: '2024-02-11', site: 'Site One' })}`,
      line(2),
      '{"url": "https://broken.example/", "title": ', // truncated JSON
      '',
      JSON.stringify({ url: 'not a url', title: 'x', content: 'y' }),
      JSON.stringify({ url: 'https://x.example/', title: 'x', content: 'y', published: 'someday' }),
      '[1,2,3]',
      ...Array.from({ length: 20 }, (_, i) => line(i + 3)),
    ];
    const file = join(dir, 'docs.jsonl');
    writeFileSync(file, `${lines.join('\r\n')}\n`);
    const progress: number[] = [];
    const result = await importJsonl(index, file, { batchSize: 7 }, (p) => progress.push(p.imported));
    expect(result).toMatchObject({ lines: 27, imported: 22, failed: 4 });
    expect(result.errors.map((e) => e.line)).toEqual([3, 5, 6, 7]);
    expect(result.errors[2]!.message).toMatch(/published/);
    expect(progress.at(-1)).toBe(22);
    expect(progress.length).toBeGreaterThan(2);
    expect(await index.stats()).toEqual([{ collection: 'web', documents: 22 }]);
    const [hit] = await index.query({ text: 'page 1', count: 1 });
    expect(hit).toMatchObject({ site: 'Site One', published: '2024-02-11T00:00:00.000Z' });
  });

  it('puts documents in the given collection', async () => {
    const file = join(dir, 'kb.jsonl');
    writeFileSync(file, [line(1), line(2)].join('\n'));
    await importJsonl(index, file, { collection: 'kb' });
    expect(await index.stats()).toEqual([{ collection: 'kb', documents: 2 }]);
  });

  it('goes on after an interruption from the last batch written, and starts over for a changed file', async () => {
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, `${Array.from({ length: 50 }, (_, i) => line(i)).join('\n')}\n`);
    const checkpoint = join(dir, 'import.json');
    let calls = 0;
    const failing = {
      ...index,
      upsert: async (docs: Parameters<typeof index.upsert>[0]) => {
        if (++calls > 3) throw new Error('database went away');
        await index.upsert(docs);
      },
    } as unknown as SqliteFtsIndex;
    await expect(importJsonl(failing, file, { batchSize: 7, checkpoint })).rejects.toThrow(/went away/);
    expect(existsSync(checkpoint)).toBe(true);
    expect(await index.stats()).toEqual([{ collection: 'web', documents: 21 }]);
    const progress: number[] = [];
    const result = await importJsonl(index, file, { batchSize: 7, checkpoint }, (p) => progress.push(p.bytes));
    expect(result).toMatchObject({ lines: 50, imported: 50, failed: 0, resumedAfterLine: 21 });
    expect(progress.at(-1)).toBe(result.totalBytes);
    expect(existsSync(checkpoint)).toBe(false);
    expect(await index.stats()).toEqual([{ collection: 'web', documents: 50 }]);

    // A checkpoint of another file (or of this one before it changed) is not used.
    await expect(importJsonl(failing, file, { batchSize: 7, checkpoint })).rejects.toThrow(/went away/);
    writeFileSync(file, `${line(99)}\n${Array.from({ length: 50 }, (_, i) => line(i)).join('\n')}\n`);
    expect(await importJsonl(index, file, { batchSize: 7, checkpoint })).toMatchObject({
      lines: 51,
      imported: 51,
      resumedAfterLine: 0,
    });
  });

  it('skips a line longer than the limit without holding it', async () => {
    const file = join(dir, 'long.jsonl');
    const long = JSON.stringify({ url: 'https://long.example/', title: 'Long', content: 'x'.repeat(5000) });
    writeFileSync(file, [line(1), long, line(2)].join('\n'));
    const result = await importJsonl(index, file, { maxLineBytes: 1000 });
    expect(result).toMatchObject({ lines: 3, imported: 2, failed: 1 });
    expect(result.errors).toEqual([{ line: 2, message: 'line longer than 1000 bytes' }]);
  });
});
