import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
});
