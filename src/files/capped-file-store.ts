import { overloaded, usageWindowReached } from '../errors/errors.js';
import type { FileNeed, FileReservation, FileStore, FileUsage, PutFileOptions, StoredFile } from './types.js';

/** The caps (0 = none), with the configuration keys that set them, named in refusals. */
export interface FileCaps {
  maxTotalBytes: number;
  maxTotalFiles: number;
  maxBytesPerAccount: number;
  maxFilesPerAccount: number;
}

/** Files and bytes counted together: what a holder has written, or holds for files being made. */
interface Tally {
  files: number;
  bytes: number;
}

/** A file this process wrote while the store was being recounted: added to the new count. */
interface Written {
  holder: string | undefined;
  size: number;
  expiresAt: number;
}

/**
 * A file store that holds what one account (a key of no account: that key) and everyone together
 * may keep in it, and refuses a file past a cap before writing it: 1308 for an account (the
 * message says when its first file expires), 1305 for the whole store. Work that will store files
 * reserves its worst case first (`reserve`), so that it is refused before it starts rather than
 * after. What the files hold is read from the store at the first write and after every sweep (so
 * files other processes wrote are counted from then on); in between this process adds what it
 * writes. Room held (reservations, writes in flight) is counted apart from the files, so a
 * recount never forgets it; a file written while a recount reads the folder is added to the new
 * count, at worst counted twice until the next sweep (never missed).
 */
export class CappedFileStore implements FileStore {
  /** What the files hold: the last count from the store plus what this process wrote since. */
  private base: FileUsage | undefined;
  private firstRead: Promise<void> | undefined;
  /** Set while a sweep recounts the store: the files written meanwhile. */
  private during: Written[] | undefined;
  /** Room held by reservations and writes in flight of this process: in all, and per holder. */
  private readonly held: Tally = { files: 0, bytes: 0 };
  private readonly heldBy = new Map<string, Tally>();

  constructor(
    private readonly inner: FileStore,
    private readonly caps: FileCaps,
    /** The share a key's files count against: `account:<id>`, or `key:<id>` for a key of no account. */
    private readonly holderOf: (keyId: string) => Promise<string>,
  ) {}

  async put(bytes: Uint8Array, options: PutFileOptions): Promise<StoredFile> {
    const holder = options.owner === undefined ? undefined : await this.holderOf(options.owner);
    await this.counted();
    return this.write(bytes, options, holder, () => {});
  }

  async reserve(owner: string | undefined, need: FileNeed): Promise<FileReservation> {
    const holder = owner === undefined ? undefined : await this.holderOf(owner);
    await this.counted();
    const left: Tally = { files: Math.max(0, need.files), bytes: Math.max(0, need.bytes) };
    // Checked and held in one synchronous step, as a put is.
    this.check(holder, left);
    this.hold(holder, left, 1);
    return {
      put: (bytes, options) => {
        // The file's room comes out of what is held (at most what is left), so that the check
        // made with it counts the file once; a file larger than its share is checked again.
        const taken: Tally = { files: Math.min(1, left.files), bytes: Math.min(bytes.byteLength, left.bytes) };
        const give = (sign: 1 | -1) => {
          left.files -= sign * taken.files;
          left.bytes -= sign * taken.bytes;
          this.hold(holder, taken, sign === 1 ? -1 : 1);
        };
        give(1);
        // A put refused or failed gives its share back to the reservation, which release() frees.
        return this.write(bytes, options, holder, () => give(-1));
      },
      release: () => {
        this.hold(holder, left, -1);
        left.files = 0;
        left.bytes = 0;
      },
    };
  }

  /**
   * Checks the file against the caps and holds its room, in one synchronous step (concurrent
   * puts of this process never pass a cap together), then writes it and counts it as written;
   * `undo` runs when it is not written.
   */
  private async write(
    bytes: Uint8Array,
    options: PutFileOptions,
    holder: string | undefined,
    undo: () => void,
  ): Promise<StoredFile> {
    const room: Tally = { files: 1, bytes: bytes.byteLength };
    try {
      this.check(holder, room);
    } catch (err) {
      undo();
      throw err;
    }
    this.hold(holder, room, 1);
    let file: StoredFile;
    try {
      file = await this.inner.put(bytes, { ...options, ...(holder === undefined ? {} : { owner: holder }) });
    } catch (err) {
      this.hold(holder, room, -1);
      undo();
      throw err;
    }
    this.hold(holder, room, -1);
    const written: Written = { holder, size: room.bytes, expiresAt: file.expiresAt };
    if (this.base) addWritten(this.base, written);
    this.during?.push(written);
    return file;
  }

  private hold(holder: string | undefined, room: Tally, sign: 1 | -1): void {
    this.held.files += sign * room.files;
    this.held.bytes += sign * room.bytes;
    if (holder === undefined) return;
    const mine = this.heldBy.get(holder) ?? { files: 0, bytes: 0 };
    mine.files += sign * room.files;
    mine.bytes += sign * room.bytes;
    if (mine.files <= 0 && mine.bytes <= 0) this.heldBy.delete(holder);
    else this.heldBy.set(holder, mine);
  }

  /** The count, read from the store at the first write (a read that failed is tried again at the next). */
  private async counted(): Promise<void> {
    while (!this.base) {
      this.firstRead ??= this.inner.usage(Date.now()).then(
        (usage) => {
          this.base ??= usage;
        },
        (err: unknown) => {
          this.firstRead = undefined;
          throw err;
        },
      );
      await this.firstRead;
    }
  }

  /** Throws when `more` does not fit beside the files and the room held, in all or in `holder`'s share. */
  private check(holder: string | undefined, more: Tally): void {
    const c = this.caps;
    const usage = this.base ?? { files: 0, bytes: 0, byOwner: new Map() };
    const files = usage.files + this.held.files;
    const bytes = usage.bytes + this.held.bytes;
    if (
      (c.maxTotalBytes > 0 && bytes + more.bytes > c.maxTotalBytes) ||
      (c.maxTotalFiles > 0 && files + more.files > c.maxTotalFiles)
    ) {
      throw overloaded(
        `The file store is full: it holds ${files} files of ${bytes} bytes${this.held.files > 0 ? ' (with those being made)' : ''}, and allows ${c.maxTotalFiles || 'any number of'} files (files.max_total_files) of ${c.maxTotalBytes || 'any number of'} bytes (files.max_total_bytes) in all; ${more.files > 1 ? `this request would store ${more.files} files of up to ${more.bytes} bytes; ` : ''}retry once files have expired`,
        { retryAfter: 600 },
      );
    }
    if (holder === undefined) return;
    const own = usage.byOwner.get(holder);
    const mine = this.heldBy.get(holder);
    const ownFiles = (own?.files ?? 0) + (mine?.files ?? 0);
    const ownBytes = (own?.bytes ?? 0) + (mine?.bytes ?? 0);
    const overBytes = c.maxBytesPerAccount > 0 && ownBytes + more.bytes > c.maxBytesPerAccount;
    const overFiles = c.maxFilesPerAccount > 0 && ownFiles + more.files > c.maxFilesPerAccount;
    if (overBytes || overFiles) {
      const rule = overFiles
        ? `${c.maxFilesPerAccount} files (files.max_files_per_account)`
        : `${c.maxBytesPerAccount} bytes (files.max_bytes_per_account)`;
      const when =
        own && Number.isFinite(own.firstExpiry)
          ? `its first file expires at ${new Date(own.firstExpiry).toISOString()}`
          : 'its files expire after files.ttl';
      const asked = `; this request would store ${more.files} file${more.files === 1 ? '' : 's'} of up to ${more.bytes} bytes`;
      throw usageWindowReached(
        `This ${holder.startsWith('account:') ? 'account' : 'key'} holds ${ownFiles} generated files of ${ownBytes} bytes${mine ? ' (with those being made)' : ''} and may hold ${rule}${asked}; ${when}`,
      );
    }
  }

  get(id: string, now: number): Promise<{ file: StoredFile; bytes: Buffer } | undefined> {
    return this.inner.get(id, now);
  }

  async sweep(now: number): Promise<number> {
    const removed = await this.inner.sweep(now);
    // Recounted from the store: files other processes wrote, and those that expired, are now in it.
    const during: Written[] = [];
    this.during = during;
    let fresh: FileUsage;
    try {
      fresh = await this.inner.usage(now);
    } finally {
      if (this.during === during) this.during = undefined;
    }
    for (const written of during) addWritten(fresh, written);
    this.base = fresh;
    return removed;
  }

  usage(now: number): Promise<FileUsage> {
    return this.inner.usage(now);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

function addWritten(usage: FileUsage, written: Written): void {
  usage.files++;
  usage.bytes += written.size;
  if (written.holder === undefined) return;
  const own = usage.byOwner.get(written.holder) ?? { files: 0, bytes: 0, firstExpiry: written.expiresAt };
  own.files++;
  own.bytes += written.size;
  own.firstExpiry = Math.min(own.firstExpiry, written.expiresAt);
  usage.byOwner.set(written.holder, own);
}
