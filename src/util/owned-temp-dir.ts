import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { processAlive } from './process-alive.js';

/**
 * A private folder (0700, mkdtemp's mode) of the temporary directory, named
 * `<prefix><pid of this process>-<random>`: the pid tells whether its owner still runs. A process
 * killed outright cannot remove its own, so each new one first removes the folders of `prefix`
 * whose owner no longer runs, and no one else's.
 */
export async function ownedTempDir(prefix: string, dir = tmpdir()): Promise<string> {
  const owned = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-`);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const owner = owned.exec(name);
      // A folder that cannot be removed (another user's) is left; it is not ours to report.
      if (owner && !processAlive(Number(owner[1])))
        await rm(path.join(dir, name), { recursive: true, force: true }).catch(() => {});
    }),
  );
  return mkdtemp(path.join(dir, `${prefix}${process.pid}-`));
}
