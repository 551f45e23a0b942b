import type { FileStore } from './types.js';

export interface SweeperLog {
  error(obj: { err: unknown }, message: string): void;
}

/** Deletes expired files now and then; returns the function that stops it. */
export function startFileSweeper(files: FileStore, intervalMs: number, log: SweeperLog): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    files
      .sweep(Date.now())
      .catch((err: unknown) => log.error({ err }, 'expired files could not be swept'))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  sweep();
  return () => clearInterval(timer);
}
