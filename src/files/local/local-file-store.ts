import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isFileId, newFileId } from '../file-id.js';
import {
  extensionFor,
  type FileReservation,
  type FileStore,
  type FileUsage,
  type PutFileOptions,
  type StoredFile,
} from '../types.js';

export interface LocalFileStoreOptions {
  dir: string;
  /** Lifetime of a file when `put` names none. */
  ttlMs: number;
}

/**
 * Files in a local folder: `<dir>/<first two chars of id>/<id>` holds the bytes and `<id>.json`
 * their metadata. Several processes on one machine may share the folder: a file is written under
 * a temporary name and renamed, so a reader never sees half of it.
 */
export class LocalFileStore implements FileStore {
  constructor(private readonly options: LocalFileStoreOptions) {}

  private paths(id: string) {
    const folder = path.join(this.options.dir, id.slice(0, 2));
    return { folder, bytes: path.join(folder, id), meta: path.join(folder, `${id}.json`) };
  }

  async put(bytes: Uint8Array, options: PutFileOptions): Promise<StoredFile> {
    const id = options.id ?? newFileId();
    if (!isFileId(id)) throw new Error('a file id must be 22 to 64 URL-safe characters');
    const now = Date.now();
    const file: StoredFile = {
      id,
      contentType: options.contentType,
      extension: extensionFor(options.contentType),
      size: bytes.byteLength,
      createdAt: now,
      expiresAt: now + (options.ttlMs ?? this.options.ttlMs),
      ...(options.owner === undefined ? {} : { owner: options.owner }),
    };
    const p = this.paths(id);
    await mkdir(p.folder, { recursive: true, mode: 0o700 });
    await writeFile(`${p.bytes}.tmp`, bytes, { mode: 0o600 });
    await rename(`${p.bytes}.tmp`, p.bytes);
    // The metadata goes last: a file is visible only once its bytes are complete.
    await writeFile(`${p.meta}.tmp`, JSON.stringify(file), { mode: 0o600 });
    await rename(`${p.meta}.tmp`, p.meta);
    return file;
  }

  /** A folder has no caps of its own: the room is always there (CappedFileStore holds the caps). */
  async reserve(owner: string | undefined): Promise<FileReservation> {
    return { put: (bytes, options) => this.put(bytes, { ...options, owner }), release: () => {} };
  }

  async get(id: string, now: number): Promise<{ file: StoredFile; bytes: Buffer } | undefined> {
    if (!isFileId(id)) return undefined;
    const p = this.paths(id);
    const file = await readMeta(p.meta);
    if (!file) return undefined;
    if (file === CORRUPT || file.expiresAt <= now) {
      await this.remove(id);
      return undefined;
    }
    const bytes = await readFile(p.bytes).catch(ifMissing(undefined));
    return bytes ? { file, bytes } : undefined;
  }

  /**
   * Removes expired files, files whose metadata cannot be read (one bad file never stops the sweep),
   * and what an interrupted `put` left: `.tmp` files and bytes without metadata, once older than
   * `LEFTOVER_MS` (a `put` in progress writes its bytes before its metadata). Only names this store
   * could have written are looked at: a folder shared with anything else loses nothing of it.
   */
  async sweep(now: number): Promise<number> {
    let removed = 0;
    for (const folder of await this.folders()) {
      const names = await this.names(folder);
      const metas = new Set(names.filter((name) => name.endsWith('.json')));
      for (const name of names) {
        const full = path.join(this.options.dir, folder, name);
        if (name.endsWith('.json')) {
          const file: StoredFile | typeof CORRUPT | undefined = await readMeta(full).catch(() => CORRUPT);
          if (file === CORRUPT || (file && file.expiresAt <= now)) {
            await this.remove(name.slice(0, -'.json'.length));
            removed++;
          }
        } else if (name.endsWith('.tmp') || !metas.has(`${name}.json`)) {
          const info = await stat(full).catch(() => undefined);
          if (info?.isFile() && info.mtimeMs < now - LEFTOVER_MS) {
            await rm(full, { force: true });
            removed++;
          }
        }
      }
    }
    return removed;
  }

  async usage(now: number): Promise<FileUsage> {
    const usage: FileUsage = { files: 0, bytes: 0, byOwner: new Map() };
    for (const folder of await this.folders()) {
      for (const name of await this.names(folder)) {
        if (!name.endsWith('.json')) continue;
        const file: StoredFile | typeof CORRUPT | undefined = await readMeta(
          path.join(this.options.dir, folder, name),
        ).catch(() => CORRUPT);
        if (file === undefined || file === CORRUPT || file.expiresAt <= now) continue;
        usage.files++;
        usage.bytes += file.size;
        if (file.owner === undefined) continue;
        const own = usage.byOwner.get(file.owner) ?? { files: 0, bytes: 0, firstExpiry: file.expiresAt };
        own.files++;
        own.bytes += file.size;
        own.firstExpiry = Math.min(own.firstExpiry, file.expiresAt);
        usage.byOwner.set(file.owner, own);
      }
    }
    return usage;
  }

  /** The two-character folders of `<dir>`; anything else there is not this store's. */
  private async folders(): Promise<string[]> {
    const names = await readdir(this.options.dir).catch(ifMissing([] as string[]));
    return names.filter((name) => FOLDER.test(name));
  }

  /** The names in one folder that this store writes: `<id>`, `<id>.json` and their `.tmp` copies. */
  private async names(folder: string): Promise<string[]> {
    const names = await readdir(path.join(this.options.dir, folder)).catch(ifNotFolder([] as string[]));
    return names.filter((name) => name.startsWith(folder) && isFileId(name.replace(OWN_SUFFIX, '')));
  }

  private async remove(id: string): Promise<void> {
    const p = this.paths(id);
    // Metadata first, so that a file being removed is already invisible.
    await rm(p.meta, { force: true });
    await rm(p.bytes, { force: true });
  }

  async close(): Promise<void> {}
}

/** A folder of the layout: the first two characters of the ids it holds. */
const FOLDER = /^[A-Za-z0-9_-]{2}$/;
const OWN_SUFFIX = /(\.json)?(\.tmp)?$/;

/** Leftovers of an interrupted `put` older than this are swept. */
const LEFTOVER_MS = 60 * 60 * 1000;

/** Metadata that is not JSON of a file (a disk fault, a half-written copy): the file is treated as gone. */
const CORRUPT = Symbol('corrupt metadata');

async function readMeta(file: string): Promise<StoredFile | typeof CORRUPT | undefined> {
  const text = await readFile(file, 'utf8').catch(ifMissing(undefined));
  if (text === undefined) return undefined;
  try {
    const meta = JSON.parse(text) as StoredFile;
    return typeof meta?.expiresAt === 'number' && typeof meta.contentType === 'string' ? meta : CORRUPT;
  } catch {
    return CORRUPT;
  }
}

/** Like ifMissing, and a file where a folder was expected is no folder of ours either. */
function ifNotFolder<T>(value: T): (err: unknown) => T {
  return (err) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return value;
    return ifMissing(value)(err);
  };
}

/** A catch handler that turns "no such file" into a value and rethrows everything else. */
function ifMissing<T>(value: T): (err: unknown) => T {
  return (err) => {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return value;
    throw err;
  };
}
