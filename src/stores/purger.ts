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
  /** How long agent conversations are kept; 0 = forever (`agents.conversation_retention_days`). */
  conversationsKeepMs?: number;
}

/**
 * Keeps what a key holder can make the store hold bounded: expired cache rows, the cache past its
 * cap and old request ids are deleted now and then (in every process; the deletes are idempotent),
 * and audit records and agent conversations past their retention. Each step runs whatever the
 * others met: a fault is logged and tried again at the next purge, never thrown.
 * Returns the function that stops it.
 */
export function startStorePurger(store: Store, options: PurgerOptions, log: PurgerLog): () => void {
  let running = false;
  const step = (what: string, run: () => Promise<unknown>): Promise<unknown> => {
    let work: Promise<unknown>;
    try {
      work = run();
    } catch (err) {
      work = Promise.reject(err);
    }
    return work.catch((err: unknown) =>
      log.error(failureFields(err, log), `the store could not purge ${what}; retrying at the next purge`),
    );
  };
  const purge = () => {
    if (running) return;
    running = true;
    const now = Date.now();
    const keepAudit = options.auditKeepMs ?? 0;
    const keepConversations = options.conversationsKeepMs ?? 0;
    step('its cache and request ids', () =>
      store.purge({ now, cacheMaxBytes: options.cacheMaxBytes, requestIdsBefore: now - options.requestIdsKeepMs }),
    )
      .then(() => keepAudit > 0 && step('old audit records', () => store.audit.deleteBefore(now - keepAudit)))
      .then(
        () =>
          keepConversations > 0 &&
          step('old agent conversations', () => store.conversations.deleteBefore(now - keepConversations)),
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
