import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { CappedFileStore, type FileCaps } from '../../src/files/capped-file-store.js';
import { LocalFileStore } from '../../src/files/local/local-file-store.js';
import type { FileStore } from '../../src/files/types.js';

const DAY = 86_400_000;
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
