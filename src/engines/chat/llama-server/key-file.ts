import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processAlive } from '../../../util/process-alive.js';

const PREFIX = 'gen-platform-llama-server-';
/** `<prefix><pid of the server that made it>-<random>`: the pid tells whether its owner still runs. */
const OWNED = new RegExp(`^${PREFIX}(\\d+)-`);

export interface ChildKey {
  value: string;
  file: string;
  remove(): Promise<void>;
}

/**
 * The key the child asks of every request, made per engine: in a file only this user can read
 * (`--api-key-file`), not on the command line that `ps` shows; the file goes on close. A server
 * killed outright cannot remove its own, so each new one first removes those of servers that no
 * longer run.
 */
export async function childKey(dir = tmpdir()): Promise<ChildKey> {
  await removeOrphanedKeys(dir);
  const value = randomBytes(24).toString('hex');
  const own = await mkdtemp(path.join(dir, `${PREFIX}${process.pid}-`));
  const file = path.join(own, 'api-key');
  await writeFile(file, `${value}\n`, { mode: 0o600 });
  return { value, file, remove: () => rm(own, { recursive: true, force: true }) };
}

async function removeOrphanedKeys(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const owner = OWNED.exec(name);
      if (owner && !processAlive(Number(owner[1])))
        await rm(path.join(dir, name), { recursive: true, force: true }).catch(() => {});
    }),
  );
}
