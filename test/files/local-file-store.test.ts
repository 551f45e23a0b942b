import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalFileStore } from '../../src/files/local/local-file-store.js';
import { runFileStoreContract } from '../contracts/file-store.contract.js';

const DAY = 24 * 3600 * 1000;

runFileStoreContract('local folder', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'gen-files-'));
  const open = () => new LocalFileStore({ dir, ttlMs: 30 * DAY });
  return {
    files: open(),
    reopen: open,
    async close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('local file store', () => {
  it('leaves no temporary files and removes bytes with their metadata', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gen-files-'));
    try {
      const files = new LocalFileStore({ dir, ttlMs: 1000 });
      const file = await files.put(Buffer.from('x'), { contentType: 'application/pdf' });
      const folder = path.join(dir, file.id.slice(0, 2));
      expect(readdirSync(folder).sort()).toEqual([file.id, `${file.id}.json`].sort());
      await files.sweep(Date.now() + 2000);
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sweeps a folder that does not exist yet without failing', async () => {
    const files = new LocalFileStore({ dir: path.join(tmpdir(), 'gen-files-none', String(Date.now())), ttlMs: 1000 });
    expect(await files.sweep(Date.now())).toBe(0);
  });

  it('a corrupt metadata file is a missing file, and never stops a sweep; leftovers of a put are swept', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gen-files-'));
    try {
      const files = new LocalFileStore({ dir, ttlMs: DAY });
      const bad = await files.put(Buffer.from('bad'), { contentType: 'application/pdf' });
      const good = await files.put(Buffer.from('good'), { contentType: 'application/pdf' });
      const folderOf = (id: string) => path.join(dir, id.slice(0, 2));
      writeFileSync(path.join(folderOf(bad.id), `${bad.id}.json`), '{"id": "trunc');
      expect(await files.get(bad.id, Date.now())).toBeUndefined();
      writeFileSync(path.join(folderOf(bad.id), `${bad.id}.json`), 'not json');
      // Leftovers: an old .tmp, old bytes without metadata, and a fresh orphan (a put in progress).
      const old = (Date.now() - 2 * 3600 * 1000) / 1000;
      const near = (tail: string) => good.id.slice(0, 2) + tail.repeat(22);
      const tmp = path.join(folderOf(good.id), `${near('a')}.tmp`);
      const orphan = path.join(folderOf(good.id), near('b'));
      const fresh = path.join(folderOf(good.id), near('c'));
      for (const file of [tmp, orphan, fresh]) writeFileSync(file, 'x');
      utimesSync(tmp, old, old);
      utimesSync(orphan, old, old);
      expect(await files.sweep(Date.now())).toBe(3);
      const left = readdirSync(folderOf(good.id));
      expect(left).toContain(near('c'));
      expect(left).not.toContain(`${near('a')}.tmp`);
      expect(left).not.toContain(near('b'));
      expect(readdirSync(folderOf(bad.id))).not.toContain(bad.id);
      expect((await files.get(good.id, Date.now()))?.bytes.toString()).toBe('good');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in a folder shared with other files, touches only names it writes; a stray file never stops a sweep', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gen-files-'));
    try {
      const files = new LocalFileStore({ dir, ttlMs: 1000 });
      const file = await files.put(Buffer.from('x'), { contentType: 'application/pdf' });
      const old = (Date.now() - 2 * 3600 * 1000) / 1000;
      // Someone else's: files at the top, a folder with another name, and foreign names in a folder of ours.
      const foreign = [
        path.join(dir, 'gen-platform.db'),
        path.join(dir, 'notes.txt'),
        path.join(dir, 'usage-journal', 'segment-1.jsonl'),
        path.join(dir, file.id.slice(0, 2), 'README'),
      ];
      mkdirSync(path.join(dir, 'usage-journal'));
      for (const name of foreign) {
        writeFileSync(name, 'keep');
        utimesSync(name, old, old);
      }
      writeFileSync(path.join(dir, 'zz'), 'a file where a folder of the layout would be');
      expect(await files.sweep(Date.now() + 2000)).toBe(1);
      for (const name of foreign) expect(readFileSync(name, 'utf8')).toBe('keep');
      expect((await files.usage(Date.now())).files).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
