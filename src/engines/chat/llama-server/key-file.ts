import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ownedTempDir } from '../../../util/owned-temp-dir.js';

export interface ChildKey {
  value: string;
  file: string;
  remove(): Promise<void>;
}

/**
 * The key the child asks of every request, made per engine: in a file only this user can read
 * (`--api-key-file`), not on the command line that `ps` shows; the file goes on close, and the
 * folders of servers killed outright go when the next one starts (util/owned-temp-dir.ts).
 */
export async function childKey(dir = tmpdir()): Promise<ChildKey> {
  const value = randomBytes(24).toString('hex');
  const own = await ownedTempDir('gen-platform-llama-server-', dir);
  const file = path.join(own, 'api-key');
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  return { value, file, remove: () => rm(own, { recursive: true, force: true }) };
}
