import type { ApiError } from '../../errors/api-error.js';
import { createUpstreamFetcher, type Fetcher } from '../../net/fetcher.js';
import { isNetError } from '../../net/net-error.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { EngineContext } from '../chat/factory.js';
import { describeCause, statusError, upstreamFailure } from '../upstream-errors.js';

/** An image backend's HTTP side: one connection pool, its headers, and how failures are reported. */
export interface BackendHttp {
  /** The backend the operator configured, reached as configured (src/net's upstream fetcher). */
  fetcher: Fetcher;
  /** For URLs elsewhere that the backend answers with: every address checked (src/net's guarded fetcher). */
  outbound: Fetcher;
  /** For log lines and error messages: which backend, without credentials. */
  label: string;
  logger: EngineContext['log'];
  headers: Record<string, string>;
  maxBytes: number;
  /** Longest wait for an answer's headers, and between two reads of its body. */
  timeoutMs: number;
}

export function backendHttp(
  label: string,
  logger: EngineContext['log'],
  options: {
    headers?: Record<string, string> | undefined;
    /** Sent as a bearer token; absent, undefined or empty: none. */
    apiKey?: string | undefined;
    maxBytes: number;
    timeoutMs: number;
    outbound: Fetcher;
  },
): BackendHttp {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
  return {
    fetcher: createUpstreamFetcher(),
    outbound: options.outbound,
    label,
    logger,
    headers,
    maxBytes: options.maxBytes,
    // A synchronous engine (A1111, OpenAI-style) sends its headers only when the image is done.
    timeoutMs: options.timeoutMs,
  };
}

export interface BackendAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** One request, its answer read whole up to the size bound. Transport failures are 1234; an abort rethrows its reason. */
export async function call(
  http: BackendHttp,
  url: URL,
  init: { method: 'GET' | 'POST'; json?: unknown; traceparent?: string | undefined },
  signal: CancelSignal,
): Promise<BackendAnswer> {
  const headers = {
    ...http.headers,
    ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    ...(init.traceparent === undefined ? {} : { traceparent: init.traceparent }),
  };
  try {
    const answer = await http.fetcher.send(
      {
        url,
        method: init.method,
        headers,
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      },
      { maxBytes: http.maxBytes, idleTimeoutMs: http.timeoutMs, signal },
    );
    return { status: answer.status, contentType: answer.contentType, body: answer.body };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    const what =
      isNetError(err) && err.failure === 'too-large'
        ? `the answer is larger than ${http.maxBytes} bytes (images.max_image_bytes)`
        : `cannot reach the image engine (${describeCause(err)})`;
    throw upstreamFailure(http, what, { target: url.pathname }, err);
  }
}

/** Like `call`, but a non-2xx answer is an error: 1234, refused-by-backend for a 4xx. */
export async function callOk(
  http: BackendHttp,
  url: URL,
  init: { method: 'GET' | 'POST'; json?: unknown },
  signal: CancelSignal,
): Promise<BackendAnswer> {
  const answer = await call(http, url, init, signal);
  if (answer.status < 200 || answer.status >= 300) throw statusError(http, answer.status, answer.body.toString('utf8'));
  return answer;
}

/** The answer's JSON, or a 1234 naming what came instead. */
export function parseJson(http: BackendHttp, answer: BackendAnswer, what: string): unknown {
  try {
    return JSON.parse(answer.body.toString('utf8'));
  } catch (err) {
    throw backendFailure(http, `${what} is not JSON`, { contentType: answer.contentType }, err);
  }
}

export function backendFailure(
  http: BackendHttp,
  what: string,
  details: Record<string, unknown> = {},
  cause?: unknown,
): ApiError {
  return upstreamFailure(http, what, details, cause);
}
