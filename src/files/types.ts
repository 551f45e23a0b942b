/**
 * The file-store seam (docs/architecture.md, "Seams"): bytes in, an unguessable id out, served by `GET /files/{id}`
 * until the file expires. Images and agent artifacts go through it. Every implementation passes
 * test/contracts/file-store.contract.ts. Times are Unix milliseconds.
 */

export interface StoredFile {
  /** At least 128 random bits, URL-safe: the id is the capability to read the file. */
  id: string;
  contentType: string;
  /** File-name extension that matches the content type, without the dot (`png`, `pdf`). */
  extension: string;
  size: number;
  createdAt: number;
  expiresAt: number;
  /** Whose share of the store the file counts against (an account or a key), when one was named. */
  owner?: string | undefined;
}

export interface PutFileOptions {
  contentType: string;
  /** Lifetime from now; default the store's configured lifetime. */
  ttlMs?: number;
  /**
   * Store under this id rather than a new random one, replacing a file of that id: for content
   * that has a stable name (e.g. a conversation's artifacts). The caller vouches that it is as
   * unguessable as a random id (an HMAC under a server secret), and that `isFileId` accepts it.
   */
  id?: string;
  /** Whose share the file counts against: a key id (a capped store counts it under the key's account). */
  owner?: string | undefined;
}

/** What the live files hold: in all, and per owner (with the first instant one of theirs expires). */
export interface FileUsage {
  files: number;
  bytes: number;
  byOwner: Map<string, OwnerUsage>;
}

export interface OwnerUsage {
  files: number;
  bytes: number;
  firstExpiry: number;
}

/** Room asked for ahead of the work that makes files: how many, and at most how many bytes together. */
export interface FileNeed {
  files: number;
  bytes: number;
}

/**
 * Room held for files about to be made, taken before the work that makes them, so that work past a
 * cap is refused before it starts. Each `put` through it is counted against what it holds (a file
 * larger than what is left is checked against the caps again); `release` gives back what is left.
 */
export interface FileReservation {
  put(bytes: Uint8Array, options: Omit<PutFileOptions, 'owner'>): Promise<StoredFile>;
  /** Gives back what no `put` used; a second call does nothing. */
  release(): void;
}

export interface FileStore {
  put(bytes: Uint8Array, options: PutFileOptions): Promise<StoredFile>;
  /**
   * Holds room for `need` under `owner`'s share (a key id, as `PutFileOptions.owner`), or refuses
   * it now with the error a `put` past the cap would get.
   */
  reserve(owner: string | undefined, need: FileNeed): Promise<FileReservation>;
  /** The file and its bytes, or undefined when it does not exist or has expired at `now`. */
  get(id: string, now: number): Promise<{ file: StoredFile; bytes: Buffer } | undefined>;
  /** Deletes every file expired at `now`; returns how many. */
  sweep(now: number): Promise<number>;
  /** What the files live at `now` hold, counted from the store itself (other processes' files too). */
  usage(now: number): Promise<FileUsage>;
  close(): Promise<void>;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'application/json': 'json',
};

/** The extension served for a content type (its parameters, e.g. `; charset=UTF-8`, ignored). */
export function extensionFor(contentType: string): string {
  return EXTENSIONS[contentType.split(';')[0]!.trim().toLowerCase()] ?? 'bin';
}
