import type { CancelSignal } from '../../util/cancel-signal.js';
/**
 * Work that must be let finish (or be stopped cleanly) when the server drains: long jobs register
 * here, and on SIGTERM each hook runs with a signal that aborts when the grace period ends.
 */
export type ShutdownHook = (deadline: CancelSignal) => Promise<void>;

export class ShutdownHooks {
  private readonly hooks = new Map<symbol, { name: string; run: ShutdownHook }>();

  /** Registers a hook; the returned function unregisters it (a job that ended needs no drain). */
  register(name: string, run: ShutdownHook): () => void {
    const id = Symbol(name);
    this.hooks.set(id, { name, run });
    return () => this.hooks.delete(id);
  }

  get size(): number {
    return this.hooks.size;
  }

  /** Runs every hook at once; resolves when all have, with the names of those that failed. */
  async run(deadline: CancelSignal): Promise<{ name: string; error: unknown }[]> {
    const all = [...this.hooks.values()];
    const results = await Promise.allSettled(all.map((h) => h.run(deadline)));
    return results.flatMap((r, i) => (r.status === 'rejected' ? [{ name: all[i]!.name, error: r.reason }] : []));
  }
}
