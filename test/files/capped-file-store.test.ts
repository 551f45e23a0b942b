import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { CappedFileStore, type FileCaps } from '../../src/files/capped-file-store.js';
import { LocalFileStore } from '../../src/files/local/local-file-store.js';
import type { FileStore } from '../../src/files/types.js';
import { runFileStoreContract } from '../contracts/file-store.contract.js';

const DAY = 86_400_000;

// Within caps it does not reach, the capped store is a file store like any other.
runFileStoreContract('capped local folder', async () => {
  const contractDir = mkdtempSync(path.join(tmpdir(), 'capped-contract-'));
  const open = () =>
    new CappedFileStore(
      new LocalFileStore({ dir: contractDir, ttlMs: 30 * DAY }),
      { maxTotalBytes: 1 << 30, maxTotalFiles: 1_000, maxBytesPerAccount: 1 << 30, maxFilesPerAccount: 1_000 },
      async (owner) => owner,
    );
  return { files: open(), reopen: open, close: async () => rmSync(contractDir, { recursive: true, force: true }) };
});
const accounts: Record<string, string> = { 'key-a1': 'acct-a', 'key-a2': 'acct-a' };
const holderOf = async (keyId: string) => (accounts[keyId] ? `account:${accounts[keyId]}` : `key:${keyId}`);

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'capped-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const local = () => new LocalFileStore({ dir, ttlMs: 30 * DAY });
const capped = (caps: Partial<FileCaps>, inner: FileStore = local()) =>
  new CappedFileStore(
    inner,
    { maxTotalBytes: 0, maxTotalFiles: 0, maxBytesPerAccount: 0, maxFilesPerAccount: 0, ...caps },
    holderOf,
  );
const filesOnDisk = () => readdirSync(dir, { recursive: true }).filter((n) => String(n).endsWith('.json')).length;
const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
};

describe('the file store within its caps', () => {
  it('holds the keys of one account together to files.max_files_per_account, before writing; others still write', async () => {
    const files = capped({ maxFilesPerAccount: 5 });
    // The attack: each distinct artifact `pages` option renders and stores new files.
    for (let i = 0; i < 5; i++)
      await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: `key-a${(i % 2) + 1}` });
    const err = await refusal(files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' }));
    expect(err.code).toBe(1308);
    expect(err.message).toMatch(
      /This account holds 5 generated files .*files\.max_files_per_account.*first file expires at \d{4}-/,
    );
    expect(filesOnDisk()).toBe(5);
    // A key of no account, and another account, have shares of their own.
    await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-lone' });
    expect(filesOnDisk()).toBe(6);
  });

  it('holds an account to files.max_bytes_per_account, and the whole store to files.max_total_bytes and max_total_files', async () => {
    const files = capped({ maxBytesPerAccount: 1_000, maxTotalBytes: 2_500, maxTotalFiles: 4 });
    await files.put(Buffer.alloc(900), { contentType: 'image/png', owner: 'key-a1' });
    const perAccount = await refusal(files.put(Buffer.alloc(200), { contentType: 'image/png', owner: 'key-a2' }));
    expect(perAccount.code).toBe(1308);
    expect(perAccount.message).toMatch(/1000 bytes \(files\.max_bytes_per_account\)/);
    await files.put(Buffer.alloc(900), { contentType: 'image/png', owner: 'key-b' });
    const total = await refusal(files.put(Buffer.alloc(900), { contentType: 'image/png', owner: 'key-c' }));
    expect(total.code).toBe(1305);
    expect(total.message).toMatch(/files\.max_total_bytes/);
    await files.put(Buffer.alloc(1), { contentType: 'text/plain', owner: 'key-c' });
    await files.put(Buffer.alloc(1), { contentType: 'text/plain', owner: 'key-d' });
    expect((await refusal(files.put(Buffer.alloc(1), { contentType: 'text/plain' }))).message).toMatch(
      /files\.max_total_files/,
    );
    expect(filesOnDisk()).toBe(4);
  });

  it('50 concurrent puts of one account never pass its cap', async () => {
    const files = capped({ maxFilesPerAccount: 7 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        files.put(Buffer.alloc(10), { contentType: 'image/png', owner: `key-a${(i % 2) + 1}` }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(7);
    expect(filesOnDisk()).toBe(7);
  });

  it('counts the files already in the store and, after a sweep, those other processes wrote; expired ones free their place', async () => {
    const now = Date.now();
    await local().put(Buffer.alloc(10), { contentType: 'image/png', owner: 'account:acct-a' });
    await local().put(Buffer.alloc(10), { contentType: 'image/png', owner: 'account:acct-a', ttlMs: 1_000 });
    const files = capped({ maxFilesPerAccount: 3 });
    await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' });
    expect((await refusal(files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' }))).code).toBe(1308);
    // Another process writes one more; this one sees it after its sweep, which also removes the expired file.
    await files.sweep(now + 2_000);
    await local().put(Buffer.alloc(10), { contentType: 'image/png', owner: 'account:acct-a' });
    await files.sweep(now + 2_000);
    expect((await refusal(files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a2' }))).code).toBe(1308);
    expect(filesOnDisk()).toBe(3);
  });

  it('a write that fails gives its place back', async () => {
    const inner = local();
    let broken = true;
    const flaky: FileStore = Object.assign(Object.create(inner) as FileStore, {
      put: (bytes: Uint8Array, options: Parameters<FileStore['put']>[1]) =>
        broken ? Promise.reject(new Error('ENOSPC: no space left on device')) : inner.put(bytes, options),
    });
    const files = capped({ maxFilesPerAccount: 1 }, flaky);
    await expect(files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' })).rejects.toThrow(/ENOSPC/);
    broken = false;
    await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' });
    expect(filesOnDisk()).toBe(1);
  });
});

describe('room reserved before the work that makes files', () => {
  it('refuses a key at its share before any work, naming the cap and what the request would store; nothing is written', async () => {
    const files = capped({ maxFilesPerAccount: 3, maxBytesPerAccount: 10_000 });
    await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' });
    const byFiles = await refusal(files.reserve('key-a2', { files: 3, bytes: 100 }));
    expect(byFiles.code).toBe(1308);
    expect(byFiles.message).toMatch(
      /files\.max_files_per_account.*this request would store 3 files of up to 100 bytes/,
    );
    const byBytes = await refusal(files.reserve('key-a1', { files: 1, bytes: 9_991 }));
    expect(byBytes.code).toBe(1308);
    expect(byBytes.message).toMatch(/10000 bytes \(files\.max_bytes_per_account\)/);
    // A request that would pass a whole share is refused even for a holder with no files yet.
    expect((await refusal(files.reserve('key-new', { files: 1, bytes: 10_001 }))).code).toBe(1308);
    const total = await refusal(capped({ maxTotalBytes: 50 }).reserve('key-b', { files: 1, bytes: 41 }));
    expect(total.code).toBe(1305);
    expect(total.message).toMatch(/files\.max_total_bytes/);
    expect(filesOnDisk()).toBe(1);
  });

  it('holds its room against other writes until released, and its own puts count once', async () => {
    const files = capped({ maxFilesPerAccount: 3 });
    const room = await files.reserve('key-a1', { files: 2, bytes: 1_000 });
    await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a2' });
    // 1 written + 2 held: the account's share is taken.
    expect((await refusal(files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a2' }))).code).toBe(1308);
    expect((await refusal(files.reserve('key-a2', { files: 1, bytes: 10 }))).code).toBe(1308);
    await room.put(Buffer.alloc(300), { contentType: 'image/png' });
    await room.put(Buffer.alloc(300), { contentType: 'image/png' });
    expect(filesOnDisk()).toBe(3);
    room.release();
    room.release();
    expect((await refusal(files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a2' }))).code).toBe(1308);
    // The files were stored under the account's share, as a put names it.
    expect((await files.usage(Date.now())).byOwner.get('account:acct-a')?.files).toBe(3);
  });

  it('released unused, its room is free again; 50 concurrent reservations never pass the cap', async () => {
    const files = capped({ maxFilesPerAccount: 7 });
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => files.reserve(`key-a${(i % 2) + 1}`, { files: 1, bytes: 10 })),
    );
    const held = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(held).toHaveLength(7);
    for (const room of held) room.release();
    await files.put(Buffer.alloc(10), { contentType: 'image/png', owner: 'key-a1' });
    expect(filesOnDisk()).toBe(1);
  });

  it('a file larger than what is left of the room is checked against the caps again', async () => {
    const files = capped({ maxBytesPerAccount: 1_000 });
    const room = await files.reserve('key-a1', { files: 1, bytes: 100 });
    const err = await refusal(room.put(Buffer.alloc(1_001), { contentType: 'image/png' }));
    expect(err.code).toBe(1308);
    // The refused put gave its share back to the room, which still holds it until released.
    expect((await refusal(files.reserve('key-a2', { files: 1, bytes: 901 }))).code).toBe(1308);
    room.release();
    await files.reserve('key-a2', { files: 1, bytes: 1_000 });
    expect(filesOnDisk()).toBe(0);
  });

  it('a recount after a sweep keeps the room held by work still running', async () => {
    const files = capped({ maxFilesPerAccount: 2 });
    const room = await files.reserve('key-a1', { files: 2, bytes: 20 });
    await files.sweep(Date.now());
    expect((await refusal(files.reserve('key-a2', { files: 1, bytes: 10 }))).code).toBe(1308);
    room.release();
    await files.reserve('key-a2', { files: 1, bytes: 10 });
  });
});
