import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

// The data directory holds API key hashes, the server's secret key, usage and every reader page:
// nothing in it is for other local users. Existing files are tightened too (installs made before).

/** Makes `dir` (and its missing parents) and leaves it readable by this user only (0700). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates `file` empty if it is missing, and leaves it readable by this user only (0600). */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}

/** Tightens the files that exist among `files` to 0600 (a database's journal files, say). */
export function tightenExisting(files: readonly string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, 0o600);
}
