import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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
});
