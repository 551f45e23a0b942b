import type { Config } from '../../config/schema.js';
import type { ResponseStore } from '../../stores/responses.js';
import { failureFields, type LevelAware } from '../../util/failure-fields.js';

export interface ResponsePurgerLog extends LevelAware {
  error(details: Record<string, unknown>, message: string): void;
}

const MB = 1024 * 1024;

/**
 * Keeps stored responses bounded, as the store purger does the cache (every process runs it; the
 * deletes are idempotent): what expired, then each key's oldest past `responses.max_stored_mb_per_key`,
 * then the oldest past `responses.max_stored_mb`. Returns the function that stops it.
 */
export function startResponsePurger(store: ResponseStore, config: Config, log: ResponsePurgerLog): () => void {
  let running = false;
  const purge = () => {
    if (running) return;
    running = true;
    store
      .purge({
        now: Date.now(),
        maxBytesPerKey: Math.floor(config.responses.max_stored_mb_per_key * MB),
        maxBytes: Math.floor(config.responses.max_stored_mb * MB),
      })
      .catch((err: unknown) =>
        log.error(failureFields(err, log), 'stored responses could not be purged; retrying at the next purge'),
      )
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(purge, config.database.purge_interval_seconds * 1000);
  timer.unref();
  purge();
  return () => clearInterval(timer);
}
