import { failureFields, type LevelAware } from '../util/failure-fields.js';
import type { FileStore } from './types.js';

export interface SweeperLog extends LevelAware {
  error(details: Record<string, unknown>, message: string): void;
}

/** Deletes expired files now and then; returns the function that stops it. */
export function startFileSweeper(files: FileStore, intervalMs: number, log: SweeperLog): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    files
      .sweep(Date.now())
      .catch((err: unknown) =>
        log.error(failureFields(err, log), 'expired files could not be swept; retrying at the next sweep'),
      )
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  sweep();
  return () => clearInterval(timer);
}
