import pg from 'pg';
import type { KeyRecord } from '../types.js';

/** The channel on which every process announces a changed key row, as `<schema>:<key id>`. */
export const KEY_CHANNEL = 'gen_platform_keys';

/** Key rows read on every request, kept until a notification says the row changed. */
export class KeyRowCache {
  private readonly rows = new Map<string, KeyRecord>();
  /** Bumped by every invalidation, so a read that raced one is not cached. */
  private generation = 0;
  /** False while the listener is disconnected: then nothing is cached and every read goes to the store. */
  live = false;

  async get(id: string, load: (id: string) => Promise<KeyRecord | undefined>): Promise<KeyRecord | undefined> {
    if (!this.live) return load(id);
    const hit = this.rows.get(id);
    if (hit) return hit;
    const started = this.generation;
    const row = await load(id);
    // Unknown ids (guessed keys) are not remembered, so they cannot grow the cache.
    if (row && this.live && started === this.generation && this.rows.size < 10_000) this.rows.set(id, row);
    return row;
  }

  forget(id: string): void {
    this.generation++;
    this.rows.delete(id);
  }

  clear(live: boolean): void {
    this.generation++;
    this.rows.clear();
    this.live = live;
  }
}

/**
 * Listens on KEY_CHANNEL with a connection of its own and drops changed rows from the cache; a
 * revocation through any process or the CLI is thus seen everywhere within milliseconds. While
 * the connection is down the cache is off (reads go to the store) and the listener reconnects.
 */
export class KeyChangeListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly schema: string,
    private readonly cache: KeyRowCache,
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client(this.connection);
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.cache.clear(false);
      client.end().catch(() => undefined);
      this.reconnectLater();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (msg) => {
      const payload = msg.payload ?? '';
      const colon = payload.lastIndexOf(':');
      if (payload.slice(0, colon) === this.schema) this.cache.forget(payload.slice(colon + 1));
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANNEL}`);
      // Rows cached before this connection may have changed while no one listened.
      if (this.client === client && !this.closed) this.cache.clear(true);
    } catch {
      lost();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.cache.clear(false);
    await client?.end().catch(() => undefined);
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed) void this.start();
    }, 500);
    this.retry.unref();
  }
}
