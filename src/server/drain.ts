import type { FastifyInstance } from 'fastify';
import type { ShutdownHooks } from '../services/lifecycle/shutdown-hooks.js';
import type { CancelSignal } from '../util/cancel-signal.js';

export interface DrainOptions {
  graceMs: number;
  hooks: ShutdownHooks;
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Aborts to cut the grace period short (a second signal). */
  hurry?: CancelSignal;
}

/**
 * Stops accepting connections, lets open requests and streams (and registered long jobs) finish
 * for up to `graceMs`, then closes whatever is still open. Resolves when nothing is left.
 */
export async function drain(app: FastifyInstance, options: DrainOptions): Promise<void> {
  const { graceMs, hooks, log } = options;
  const deadline = new AbortController();
  const cut = () => {
    if (deadline.signal.aborted) return;
    deadline.abort();
    log.warn({ graceMs }, 'Grace period over: closing the connections still open');
    app.server.closeAllConnections();
  };
  const timer = setTimeout(cut, graceMs);
  // server.close() closes the connections idle at that moment only; one whose stream ends later
  // would otherwise stay open for its keep-alive timeout.
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  options.hurry?.addEventListener('abort', cut, { once: true });
  log.info({ graceMs, jobs: hooks.size }, 'Draining: no new connections; open requests may finish');
  try {
    // app.close stops listening, closes idle keep-alive connections and waits for busy ones.
    const [, failed] = await Promise.all([app.close(), hooks.run(deadline.signal)]);
    for (const f of failed) log.warn({ err: f.error, job: f.name }, 'A shutdown hook failed');
  } finally {
    clearTimeout(timer);
    clearInterval(sweep);
    options.hurry?.removeEventListener('abort', cut);
  }
}
