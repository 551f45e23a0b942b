import { failureFields, type LevelAware } from '../util/failure-fields.js';
import type { Store } from './types.js';

export interface PurgerLog extends LevelAware {
  error(details: Record<string, unknown>, message: string): void;
}

export interface PurgerOptions {
  intervalMs: number;
  /** Largest total size of cached values; the entries that expire soonest go first. */
  cacheMaxBytes: number;
  /** How long a client-chosen request id stays claimed (1231 answers a repeat within it). */
  requestIdsKeepMs: number;
  /** How long audit records are kept; 0 = forever (`audit.retention_days`). */
  auditKeepMs?: number;
}

/**
 * Keeps what a key holder can make the store hold bounded: expired cache rows, the cache past its
 * cap and old request ids are deleted now and then (in every process; the deletes are idempotent),
 * and audit records past their retention.
 * Returns the function that stops it.
 */
export function startStorePurger(store: Store, options: PurgerOptions, log: PurgerLog): () => void {
  let running = false;
  const purge = () => {
    if (running) return;
    running = true;
    const now = Date.now();
    const keepAudit = options.auditKeepMs ?? 0;
    store
      .purge({ now, cacheMaxBytes: options.cacheMaxBytes, requestIdsBefore: now - options.requestIdsKeepMs })
      .then(() => (keepAudit > 0 ? store.audit.deleteBefore(now - keepAudit) : 0))
      .catch((err: unknown) =>
        log.error(failureFields(err, log), 'the store could not be purged; retrying at the next purge'),
      )
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(purge, options.intervalMs);
  timer.unref();
  purge();
  return () => clearInterval(timer);
}
