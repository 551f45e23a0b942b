import pg from 'pg';
import type { DependencyStatus } from '../dependency-status.js';
import type { KeyRowCache } from './key-row-cache.js';

/** The channel on which every process announces a changed key row, as `<schema>:<key id>`. */
export const KEY_CHANNEL = 'gen_platform_keys';

export interface KeyChangeListenerOptions {
  /** How often the connection is checked with a query; a check that fails or hangs drops it. */
  checkMs: number;
  status?: DependencyStatus;
}

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 5000;

/**
 * Listens on KEY_CHANNEL with a connection of its own and drops changed rows from the cache; a
 * revocation through any process or the CLI is thus seen everywhere within milliseconds. A LISTEN
 * connection can die silently (a proxy or NAT drops it, a failover): TCP keepalive (in the
 * connection settings) and a periodic query find out, the connection is replaced with backoff,
 * and meanwhile the cache reads every row from the store.
 */
export class KeyChangeListener {
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private check: NodeJS.Timeout | undefined;
  private retryMs = FIRST_RETRY_MS;
  private ready = false;
  /** Connections made after the first (for /metrics and tests). */
  reconnects = 0;
  private started = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly schema: string,
    private readonly cache: KeyRowCache,
    private readonly options: KeyChangeListenerOptions,
  ) {}

  get connected(): boolean {
    return this.ready;
  }

  async start(): Promise<void> {
    const client = new pg.Client(this.connection);
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      this.ready = false;
      clearInterval(this.check);
      if (err) this.options.status?.failed(err);
      this.cache.setLive(false);
      client.end().catch(() => undefined);
      this.reconnectLater();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (msg) => {
      const payload = msg.payload ?? '';
      const colon = payload.lastIndexOf(':');
      if (payload.slice(0, colon) === this.schema) this.cache.forget(payload.slice(colon + 1));
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${KEY_CHANNEL}`);
      if (this.client !== client || this.closed) return;
      // Rows cached before this connection may have changed while no one listened.
      this.cache.setLive(true);
      this.options.status?.succeeded(false);
      this.ready = true;
      this.retryMs = FIRST_RETRY_MS;
      if (this.started) this.reconnects++;
      this.started = true;
      this.check = setInterval(() => this.healthCheck(client, lost), this.options.checkMs);
      this.check.unref();
    } catch (err) {
      lost(err as Error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    clearInterval(this.check);
    const client = this.client;
    this.client = undefined;
    this.ready = false;
    this.cache.setLive(false);
    await client?.end().catch(() => undefined);
  }

  /** A query that does not answer within the interval counts as a dead connection. */
  private healthCheck(client: pg.Client, lost: (err?: Error) => void): void {
    const timer = setTimeout(() => lost(new Error('LISTEN connection check timed out')), this.options.checkMs);
    timer.unref();
    client.query('SELECT 1').then(
      () => clearTimeout(timer),
      (err: Error) => {
        clearTimeout(timer);
        lost(err);
      },
    );
  }

  private reconnectLater(): void {
    if (this.closed || this.retry) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed) void this.start();
    }, wait);
    this.retry.unref();
  }
}
