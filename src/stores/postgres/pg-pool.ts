import pg from 'pg';
import type { DependencyStatus } from '../dependency-status.js';

export interface PgPoolOptions {
  url: string;
  /** Schema put first on every connection's search_path. */
  schema?: string | undefined;
  max: number;
  /** Longest wait for a connection (pool full, or the server not answering); then the query fails. */
  connectTimeoutMs: number;
  /**
   * Longest wait for a query's answer (none when unset): a query on a connection whose peer
   * vanished silently would otherwise wait for TCP to give up (many minutes). The pool drops the
   * connection it timed out on.
   */
  queryTimeoutMs?: number | undefined;
  applicationName: string;
  status: DependencyStatus;
  /** A connection failed outside any query (e.g. the server restarted while it sat idle). */
  onError(err: Error): void;
}

/**
 * Every PostgreSQL pool of the process comes from here, so that none can end the process: an
 * 'error' event without a listener throws, and node-postgres emits one on the pool for an idle
 * connection that dies and on the client for a checked-out one (a transaction's). Broken
 * connections are dropped by the pool on release and replaced by new ones on demand; TCP
 * keepalive finds a connection whose peer vanished without a word.
 */
export function openPgPool(options: PgPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max,
    connectionTimeoutMillis: options.connectTimeoutMs,
    ...(options.queryTimeoutMs ? { query_timeout: options.queryTimeoutMs } : {}),
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    application_name: options.applicationName,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection's error reaches both listeners: counted once (by the client's), logged here.
  pool.on('error', (err) => options.onError(err));
  pool.on('connect', (client) => {
    // While checked out a client has no pool listener; the query in flight gets the error too.
    client.on('error', (err) => options.status.failed(err));
  });
  return pool;
}
