/**
 * Engines made on first use, by key, for any kind of engine (chat, images): concurrent callers
 * share one creation, a failed creation is forgotten so that a later call tries again, and close()
 * closes what was made. The chat and image directories keep theirs in one of these.
 */
export class EngineCache<E extends { close(): Promise<void> }> {
  private readonly pending = new Map<string, Promise<E>>();
  /** Engines once made, read without waiting (load and metrics never open anything). */
  private readonly made = new Map<string, E>();

  get(key: string, make: () => Promise<E>): Promise<E> {
    let pending = this.pending.get(key);
    if (!pending) {
      pending = make();
      this.pending.set(key, pending);
      pending.then(
        (engine) => this.made.set(key, engine),
        () => this.pending.delete(key),
      );
    }
    return pending;
  }

  /** The engine under `key` if it has been made; undefined while it is being made, or never asked for. */
  created(key: string): E | undefined {
    return this.made.get(key);
  }

  /** Waits for engines still being made, and closes every one that was. */
  async close(): Promise<void> {
    const all = await Promise.allSettled([...this.pending.values()]);
    await Promise.all(all.map((r) => (r.status === 'fulfilled' ? r.value.close() : undefined)));
  }
}
