import type { TaskStore } from '../../stores/tasks.js';
import { failureFields, type LevelAware } from '../../util/failure-fields.js';

/**
 * Deletes ended tasks once their images have expired (`files.ttl` after they ended): their URLs
 * would answer 404 anyway, and the table must not grow without bound. Returns the stop function.
 */
export function startTaskSweeper(
  tasks: TaskStore,
  options: { intervalMs: number; keepMs: number },
  log: { warn(details: Record<string, unknown>, message: string): void } & LevelAware,
): () => void {
  const sweep = () => {
    tasks.deleteEndedBefore(Date.now() - options.keepMs).catch((err: unknown) => {
      log.warn(failureFields(err, log), 'image tasks: deleting ended tasks failed; retrying at the next sweep');
    });
  };
  const timer = setInterval(sweep, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
