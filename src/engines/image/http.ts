import { Agent } from 'undici';
import type { ApiError } from '../../errors/api-error.js';
import { readBounded, TooLargeError } from '../../net/body-reader.js';
import type { CancelSignal } from '../../util/cancel-signal.js';
import type { EngineContext } from '../chat/factory.js';
import { describeCause, statusError, upstreamFailure } from '../upstream-errors.js';

/** An image backend's HTTP side: one connection pool, its headers, and how failures are reported. */
export interface BackendHttp {
  agent: Agent;
  /** For log lines and error messages: which backend, without credentials. */
  label: string;
  logger: EngineContext['log'];
  headers: Record<string, string>;
  maxBytes: number;
}

export function backendHttp(
  label: string,
  logger: EngineContext['log'],
  options: { headers?: Record<string, string>; apiKey?: string; maxBytes: number; timeoutMs: number },
): BackendHttp {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
  return {
    // A synchronous engine (A1111, OpenAI-style) sends its headers only when the image is done.
    agent: new Agent({
      connect: { timeout: 10_000 },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    }),
    label,
    logger,
    headers,
    maxBytes: options.maxBytes,
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
    const response = await http.agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: init.method,
      headers,
      ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      signal,
    });
    const encoding = String(response.headers['content-encoding'] ?? '');
    const body = await readBounded(response.body, encoding, http.maxBytes);
    return { status: response.statusCode, contentType: String(response.headers['content-type'] ?? ''), body };
  } catch (err) {
    if (signal.aborted) throw signal.reason;
    const what =
      err instanceof TooLargeError
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
