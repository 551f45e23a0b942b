import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileStore } from '../../src/files/types.js';

export interface FileStoreFixture {
  files: FileStore;
  /** A second store on the same data, as another process would open it. */
  reopen(): FileStore;
  close(): Promise<void>;
}

const DAY = 24 * 3600 * 1000;

/** The file-store seam's contract: every implementation runs this same suite. */
export function runFileStoreContract(label: string, setup: () => Promise<FileStoreFixture>): void {
  describe(`file store contract: ${label}`, () => {
    let f: FileStoreFixture;
    beforeEach(async () => {
      f = await setup();
    });
    afterEach(async () => {
      await f.close();
    });

    it('gives back the bytes and type it was given, under an id of at least 128 random bits', async () => {
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
      const file = await f.files.put(bytes, { contentType: 'image/png' });
      expect(file.id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      expect(file).toMatchObject({ contentType: 'image/png', extension: 'png', size: 8 });
      const got = await f.files.get(file.id, Date.now());
      expect(got?.bytes.equals(bytes)).toBe(true);
      expect(got?.file).toEqual(file);
    });

    it('stores under a caller-chosen id, replacing what was there', async () => {
      const id = 'chosen_id-0123456789abcdefABCD';
      const first = await f.files.put(Buffer.from('one'), { contentType: 'text/plain', id });
      expect(first.id).toBe(id);
      await f.files.put(Buffer.from('two'), { contentType: 'text/plain', id });
      expect((await f.reopen().get(id, Date.now()))?.bytes.toString()).toBe('two');
      await expect(f.files.put(Buffer.from('x'), { contentType: 'text/plain', id: '../x' })).rejects.toThrow();
    });

    it('counts what the live files hold, in all and per owner, as any store on the same data sees it', async () => {
      const now = Date.now();
      const a1 = await f.files.put(Buffer.alloc(100), { contentType: 'image/png', owner: 'account:a' });
      await f.files.put(Buffer.alloc(50), { contentType: 'image/png', owner: 'account:a', ttlMs: 5_000 });
      await f.files.put(Buffer.alloc(7), { contentType: 'text/plain', owner: 'key:b' });
      await f.files.put(Buffer.alloc(3), { contentType: 'text/plain' });
      expect(a1.owner).toBe('account:a');
      const usage = await f.reopen().usage(now);
      expect(usage).toMatchObject({ files: 4, bytes: 160 });
      expect(usage.byOwner.get('account:a')).toMatchObject({ files: 2, bytes: 150 });
      expect(usage.byOwner.get('account:a')!.firstExpiry).toBeLessThan(a1.expiresAt);
      expect(usage.byOwner.get('key:b')).toMatchObject({ files: 1, bytes: 7 });
      // An expired file no longer counts, swept or not.
      const later = await f.files.usage(now + 60_000);
      expect(later.byOwner.get('account:a')).toMatchObject({ files: 1, bytes: 100 });
    });

    it('stores through a reservation as through put, under the owner the reservation names', async () => {
      const room = await f.files.reserve('key:r', { files: 2, bytes: 1_000 });
      const file = await room.put(Buffer.from('one'), { contentType: 'text/plain' });
      expect(file.owner).toBe('key:r');
      expect((await f.reopen().get(file.id, Date.now()))?.bytes.toString()).toBe('one');
      room.release();
      room.release();
      expect((await f.reopen().usage(Date.now())).byOwner.get('key:r')).toMatchObject({ files: 1, bytes: 3 });
    });

    it('never gives two files one id', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 50; i++) ids.add((await f.files.put(Buffer.from([i]), { contentType: 'text/plain' })).id);
      expect(ids.size).toBe(50);
    });

    it('is seen by another store on the same data', async () => {
      const file = await f.files.put(Buffer.from('héllo'), { contentType: 'text/plain; charset=UTF-8' });
      const other = f.reopen();
      expect((await other.get(file.id, Date.now()))?.bytes.toString()).toBe('héllo');
      expect(file.extension).toBe('txt');
    });

    it('answers nothing for unknown, malformed and path-like ids', async () => {
      for (const id of ['AAAAAAAAAAAAAAAAAAAAAAAAAAAA', '', '../../etc/passwd', 'a/b', '..', 'x'.repeat(500)]) {
        expect(await f.files.get(id, Date.now())).toBeUndefined();
      }
    });

    it('hides a file once it has expired, and the sweeper deletes it', async () => {
      const now = Date.now();
      const short = await f.files.put(Buffer.from('a'), { contentType: 'text/plain', ttlMs: 1000 });
      const long = await f.files.put(Buffer.from('b'), { contentType: 'text/plain' });
      expect(long.expiresAt - long.createdAt).toBe(30 * DAY);
      expect(await f.files.get(short.id, now + 2000)).toBeUndefined();
      const other = await f.files.put(Buffer.from('c'), { contentType: 'text/plain', ttlMs: 1000 });
      expect(await f.files.sweep(now + 5000)).toBe(1);
      expect(await f.files.get(other.id, now)).toBeUndefined();
      expect((await f.files.get(long.id, now + 5000))?.bytes.toString()).toBe('b');
      expect(await f.files.sweep(now + 31 * DAY)).toBe(1);
      expect(await f.files.get(long.id, now)).toBeUndefined();
    });
  });
}
