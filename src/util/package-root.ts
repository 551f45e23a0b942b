import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: { dir: string; version: string } | undefined;

/**
 * The installed package's folder and version: the first package.json named gen-platform above this
 * file (src/util/ in a checkout, dist/src/util/ in a build or an installed package).
 */
export function packageRoot(): { dir: string; version: string } {
  if (root) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === 'gen-platform') {
        root = { dir, version: manifest.version ?? 'unknown' };
        return root;
      }
    } catch {
      // no package.json at this level: look one up
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('gen-platform: cannot find its own package.json');
    dir = parent;
  }
}
