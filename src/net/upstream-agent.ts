import type { Socket } from 'node:net';
import { Agent, buildConnector, Client, type Dispatcher } from 'undici';

/**
 * Connections to an upstream engine the operator configured (an OpenAI-compatible chat server):
 * pooled and kept alive, one request per connection at a time, reached as configured (no address
 * checks: such upstreams live on loopback or a private network on purpose). The engine reads its
 * replies itself, as streams, under its own bounds.
 */
export interface UpstreamAgentOptions {
  connectMs: number;
  /** Longest wait for an answer's headers. */
  headersMs: number;
  /** Longest gap between two reads of an answer's body. */
  idleMs: number;
  keepAliveMs: number;
  /** Connections per origin. */
  connections: number;
}

/**
 * Errors raised on a connection that had already carried a reply: the upstream closed it while it
 * sat idle in our pool (llama.cpp server after ~5 s, uvicorn after 5 s) and the next request went
 * out on it. Such a request never reached the server, so it is safe to send again.
 */
const onReusedConnection = new WeakSet<object>();

const STALE_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * Whether a request that failed before any byte of its reply came back failed because its
 * connection was a reused one that the upstream had closed: then it is sent once more, on a fresh
 * connection. A fresh connection that fails is not retried (the server may have seen the request).
 */
export function failedOnStaleConnection(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code !== 'string' || !STALE_CODES.has(code)) return false;
  if (onReusedConnection.has(err)) return true;
  // undici's "other side closed" carries the socket's counters.
  const socket = (err as { socket?: { bytesRead?: unknown } }).socket;
  return typeof socket?.bytesRead === 'number' && socket.bytesRead > 0;
}

function connector(options: UpstreamAgentOptions): buildConnector.connector {
  const connect = buildConnector({ timeout: options.connectMs });
  return (connectOptions, callback) =>
    connect(connectOptions, (err, socket) => {
      // Registered before undici's own listener, so the error is marked before undici hands it on.
      if (err || !socket) {
        callback(err ?? new Error('no socket'), null);
        return;
      }
      socket.on('error', (error: Error) => markIfReused(error, socket));
      callback(null, socket);
    });
}

function markIfReused(error: Error, socket: Socket): void {
  if (socket.bytesRead > 0) onReusedConnection.add(error);
}

function dispatcherOptions(options: UpstreamAgentOptions): Agent.Options {
  return {
    // One request per connection at a time: a generation holds its connection for seconds, and an
    // abort must be able to close exactly that request's socket.
    pipelining: 1,
    // Shorter than the upstreams' own idle close (llama.cpp server and uvicorn 5 s), with a server's
    // `Keep-Alive: timeout` hint only ever shortening it: a socket is let go before the server does.
    keepAliveTimeout: options.keepAliveMs,
    keepAliveMaxTimeout: options.keepAliveMs,
    keepAliveTimeoutThreshold: 1_000,
    connect: connector(options),
    headersTimeout: options.headersMs,
    bodyTimeout: options.idleMs,
  };
}

export function createUpstreamAgent(options: UpstreamAgentOptions): Agent {
  return new Agent({ ...dispatcherOptions(options), connections: options.connections });
}

/** A one-request client on a new connection, for the one retry of a request that met a stale one. */
export function freshConnection(options: UpstreamAgentOptions, origin: string): Dispatcher {
  return new Client(origin, dispatcherOptions(options));
}
