import { Agent, type Dispatcher } from 'undici';
import type { CancelSignal } from '../util/cancel-signal.js';
import { createAllowList } from './allow-list.js';
import { readBounded } from './body-reader.js';
import type { Deadline } from './deadline.js';
import { type FetchedBody, type FetchLimits, fetchUrl, header, transportFailure } from './fetch-url.js';
import { createGuardedAgent } from './guarded-agent.js';
import { type LookupFunction, systemLookup } from './resolve.js';

export interface OutboundRequest {
  url: URL;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD' | 'OPTIONS';
  headers?: Record<string, string>;
  body?: string | Uint8Array | null;
}

export interface OutboundAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  /** Decompressed, at most `maxBytes`. */
  body: Buffer;
}

export interface SendBounds {
  /** Bytes of the answer's body read at most, after decompression. */
  maxBytes: number;
  /** Longest wait for the headers, and between two reads of the body. */
  idleTimeoutMs: number;
  /** The caller's cancellation (its client left, its own deadline): the request ends with it. */
  signal: CancelSignal;
}

/**
 * Every URL the server fetches goes through one of these (src/net/, docs/architecture.md,
 * "Outbound fetches"). Both kinds bound the body after decompression and the time, and fail with
 * NetErrors; they differ in what they may reach:
 * - a guarded fetcher (`createGuardedFetcher`) is for URLs that come from clients or third parties
 *   (the reader, chat and tokenizer media, an image engine's output elsewhere): every address a
 *   host resolves to is checked when connecting, on every redirect, against ip-ranges.ts and the
 *   operator's allow-list;
 * - an upstream fetcher (`createUpstreamFetcher`) is for endpoints the operator configured (SearXNG,
 *   an image engine, the trace receiver), reached as configured: often on loopback or a private
 *   network, on purpose.
 */
export interface Fetcher {
  /** GET with redirects followed (each hop re-checked by a guarded fetcher), the body bounded. */
  get(url: string, limits: FetchLimits, deadline: Deadline): Promise<FetchedBody>;
  /** One request of any method, redirects not followed, the answer's body bounded. */
  send(request: OutboundRequest, bounds: SendBounds): Promise<OutboundAnswer>;
  /** Lets open connections finish. */
  close(): Promise<void>;
  /** Ends open connections now (a client that left must not wait for reads in flight). */
  destroy(): Promise<void>;
}

export interface GuardOptions {
  /** `reader.allow_hosts` (allow-list.ts says what an entry opens). */
  allowHosts?: readonly string[];
  /** DNS resolution; default the system resolver, every address of the answer checked. */
  lookup?: LookupFunction;
}

export function createGuardedFetcher(options: GuardOptions = {}): Fetcher {
  return fetcherOn(createGuardedAgent(createAllowList(options.allowHosts), options.lookup ?? systemLookup));
}

export function createUpstreamFetcher(options: { connectTimeoutMs?: number } = {}): Fetcher {
  return fetcherOn(new Agent({ connect: { timeout: options.connectTimeoutMs ?? 10_000 }, keepAliveTimeout: 4_000 }));
}

function fetcherOn(agent: Dispatcher): Fetcher {
  return {
    get: (url, limits, deadline) => fetchUrl(agent, url, limits, deadline),
    send: (request, bounds) => send(agent, request, bounds),
    close: () => agent.close(),
    destroy: () => agent.destroy(),
  };
}

async function send(agent: Dispatcher, request: OutboundRequest, bounds: SendBounds): Promise<OutboundAnswer> {
  const { signal } = bounds;
  try {
    const response = await agent.request({
      origin: request.url.origin,
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method,
      headers: request.headers ?? {},
      body: request.body ?? null,
      signal,
      headersTimeout: bounds.idleTimeoutMs,
      bodyTimeout: bounds.idleTimeoutMs,
    });
    const body = await readBounded(response.body, header(response.headers, 'content-encoding'), bounds.maxBytes);
    return {
      status: response.statusCode,
      headers: response.headers,
      contentType: header(response.headers, 'content-type'),
      body,
    };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw transportFailure(error, request.url);
  }
}
