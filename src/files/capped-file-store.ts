import { overloaded, usageWindowReached } from '../errors/errors.js';
import type { FileStore, FileUsage, PutFileOptions, StoredFile } from './types.js';

/** The caps (0 = none), with the configuration keys that set them, named in refusals. */
export interface FileCaps {
  maxTotalBytes: number;
  maxTotalFiles: number;
  maxBytesPerAccount: number;
  maxFilesPerAccount: number;
}

/**
 * A file store that holds what one account (a key of no account: that key) and everyone together
 * may keep in it, and refuses a file past a cap before writing it: 1308 for an account (the
 * message says when its first file expires), 1305 for the whole store. What the files hold is
 * read from the store at the first write and after every sweep (so files other processes wrote
 * are counted from then on); in between this process adds what it writes.
 */
export class CappedFileStore implements FileStore {
  private tally: Promise<FileUsage> | undefined;

  constructor(
    private readonly inner: FileStore,
    private readonly caps: FileCaps,
    /** The share a key's files count against: `account:<id>`, or `key:<id>` for a key of no account. */
    private readonly holderOf: (keyId: string) => Promise<string>,
  ) {}

  async put(bytes: Uint8Array, options: PutFileOptions): Promise<StoredFile> {
    const owner = options.owner === undefined ? undefined : await this.holderOf(options.owner);
    const usage = await this.counted();
    const size = bytes.byteLength;
    // Checked and counted in one synchronous step: concurrent puts of this process never pass a cap together.
    this.check(usage, owner, size);
    const own = owner === undefined ? undefined : usage.byOwner.get(owner);
    const held = own ?? { files: 0, bytes: 0, firstExpiry: Number.POSITIVE_INFINITY };
    const add = (sign: 1 | -1) => {
      usage.files += sign;
      usage.bytes += sign * size;
      held.files += sign;
      held.bytes += sign * size;
    };
    add(1);
    if (owner !== undefined && own === undefined) usage.byOwner.set(owner, held);
    try {
      const file = await this.inner.put(bytes, { ...options, ...(owner === undefined ? {} : { owner }) });
      held.firstExpiry = Math.min(held.firstExpiry, file.expiresAt);
      return file;
    } catch (err) {
      add(-1);
      throw err;
    }
  }

  private counted(): Promise<FileUsage> {
    if (this.tally === undefined) {
      const reading = this.inner.usage(Date.now());
      this.tally = reading;
      // A store that could not be read is read again at the next write, not never again.
      reading.catch(() => {
        if (this.tally === reading) this.tally = undefined;
      });
    }
    return this.tally;
  }

  private check(usage: FileUsage, owner: string | undefined, size: number): void {
    const c = this.caps;
    if (
      (c.maxTotalBytes > 0 && usage.bytes + size > c.maxTotalBytes) ||
      (c.maxTotalFiles > 0 && usage.files + 1 > c.maxTotalFiles)
    ) {
      throw overloaded(
        `The file store is full: it holds ${usage.files} files of ${usage.bytes} bytes, and allows ${c.maxTotalFiles || 'any number of'} files (files.max_total_files) of ${c.maxTotalBytes || 'any number of'} bytes (files.max_total_bytes) in all; retry once files have expired`,
        { retryAfter: 600 },
      );
    }
    if (owner === undefined) return;
    const own = usage.byOwner.get(owner);
    if (!own) return;
    const overBytes = c.maxBytesPerAccount > 0 && own.bytes + size > c.maxBytesPerAccount;
    const overFiles = c.maxFilesPerAccount > 0 && own.files + 1 > c.maxFilesPerAccount;
    if (overBytes || overFiles) {
      const rule = overFiles
        ? `${c.maxFilesPerAccount} files (files.max_files_per_account)`
        : `${c.maxBytesPerAccount} bytes (files.max_bytes_per_account)`;
      const when = Number.isFinite(own.firstExpiry)
        ? `its first file expires at ${new Date(own.firstExpiry).toISOString()}`
        : 'its files expire after files.ttl';
      throw usageWindowReached(
        `This ${owner.startsWith('account:') ? 'account' : 'key'} holds ${own.files} generated files of ${own.bytes} bytes and may hold ${rule}; ${when}`,
      );
    }
  }

  get(id: string, now: number): Promise<{ file: StoredFile; bytes: Buffer } | undefined> {
    return this.inner.get(id, now);
  }

  async sweep(now: number): Promise<number> {
    const removed = await this.inner.sweep(now);
    // Recounted from the store: files other processes wrote, and those that expired, are now in it.
    const fresh = await this.inner.usage(now);
    this.tally = Promise.resolve(fresh);
    return removed;
  }

  usage(now: number): Promise<FileUsage> {
    return this.inner.usage(now);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
