import { createHash } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { importJsonl } from '../search/import-jsonl.js';
import type { SearchIndex } from '../search/types.js';
import type { CliEnv } from './cli-env.js';
import { progressBar } from './progress-bar.js';

/**
 * `index import FILE`: the JSONL import with a progress bar, resumable. Its checkpoint lives in the
 * data directory, named after the file's absolute path, so that running the same command again
 * after an interruption goes on where the last batch ended (`--restart` starts over).
 */
export async function importCommand(
  index: SearchIndex,
  file: string,
  dataDir: string,
  env: CliEnv,
  options: { collection: string | undefined; restart: boolean },
): Promise<number> {
  const dir = path.join(dataDir, 'imports');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const checkpoint = path.join(dir, `${createHash('sha256').update(file).digest('hex').slice(0, 32)}.json`);
  if (options.restart) await rm(checkpoint, { force: true });
  const bar = progressBar(`importing ${path.basename(file)}`, env.status, env.err);
  const result = await importJsonl(
    index,
    file,
    // An empty --collection is none: each line's own.
    { checkpoint, collection: options.collection || undefined },
    (p) =>
      bar.update(
        p.bytes,
        p.totalBytes,
        `${p.lines.toLocaleString('en-US')} lines, ${p.imported.toLocaleString('en-US')} imported`,
      ),
  ).finally(() => bar.end());
  if (result.resumedAfterLine > 0)
    env.out(`resumed after line ${result.resumedAfterLine} (an earlier import stopped there)`);
  for (const e of result.errors.slice(0, 20)) env.err(`line ${e.line}: ${e.message}`);
  if (result.failed > 20) env.err(`... and ${result.failed - 20} more failed lines`);
  env.out(`imported ${result.imported} of ${result.lines} lines (${result.failed} failed)`);
  return result.imported > 0 || result.lines === 0 ? 0 : 1;
}
