/**
 * Child side of `bench/run.ts`: imports one benchmark module, runs it and sends its rows to the
 * parent over IPC. Exits when done, so that handles a module leaves open never keep it alive.
 */
import { pathToFileURL } from 'node:url';
import type { BenchModule, BenchRow } from './types.js';

export type ModuleMessage = { rows: BenchRow[] } | { error: string };

const send = (message: ModuleMessage) =>
  new Promise<void>((resolve) => {
    if (process.send) process.send(message, () => resolve());
    else {
      console.log(JSON.stringify(message));
      resolve();
    }
  });

const file = process.argv[2];
// The parent went away: nobody will read the rows.
process.on('disconnect', () => process.exit(2));
try {
  if (!file) throw new Error('usage: run-module.ts <module file>');
  const mod = (await import(pathToFileURL(file).href)) as Partial<BenchModule>;
  if (typeof mod.run !== 'function') throw new Error(`${file} exports no run()`);
  const rows = await mod.run();
  await send({ rows });
  process.exit(0);
} catch (err) {
  await send({ error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  process.exit(1);
}
