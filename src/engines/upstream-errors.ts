import { randomBytes } from 'node:crypto';
import type { ApiError } from '../errors/api-error.js';
import { contextExceeded, upstreamFailure as upstreamError } from '../errors/errors.js';
import { isNetError } from '../net/net-error.js';
import { RequestRefusedByBackend } from './chat/pool-errors.js';

/** Structured logger, shaped like pino's `(details, message)` so Fastify's logger fits as is. */
export interface UpstreamLogger {
  error(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

/** How an upstream is named in errors and logs. */
export interface UpstreamLabel {
  label: string;
  logger: UpstreamLogger | undefined;
}

// vLLM / OpenAI: "maximum context length is"; llama.cpp server: "exceeds the available context size",
// `exceed_context_size_error`; OpenAI: `context_length_exceeded`; SGLang: "longer than the model's context length".
const CONTEXT_PATTERN =
  /context[ _](length|window|size)|maximum context|exceed_context_size|context_length_exceeded|too many tokens/i;

const MAX_LOGGED_BODY = 2_000;

/** Message of an OpenAI-style error body (`{error:{message}}`, `{message}`, `{error:"..."}`), else the raw text. */
export function upstreamMessage(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed !== null && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const error = record['error'];
      if (typeof error === 'string') return error;
      if (error !== null && typeof error === 'object') {
        const message = (error as Record<string, unknown>)['message'];
        if (typeof message === 'string') return message;
      }
      if (typeof record['message'] === 'string') return record['message'];
      if (typeof record['detail'] === 'string') return record['detail'];
    }
  } catch {
    // Not JSON (a proxy's HTML page, a plain-text error): the text itself is the message.
  }
  return body.slice(0, MAX_LOGGED_BODY);
}

export function isContextLengthError(status: number, body: string): boolean {
  return (status === 400 || status === 413 || status === 422) && CONTEXT_PATTERN.test(body);
}

/**
 * A 1234 whose message names what failed and carries an error id; the log line has the same id and
 * the details (upstream message, status, cause) that the client must not see.
 */
export function upstreamFailure(
  options: UpstreamLabel,
  what: string,
  details: Record<string, unknown>,
  cause?: unknown,
): ApiError {
  const errorId = randomBytes(8).toString('hex');
  options.logger?.error(
    { errorId, upstream: options.label, ...details, err: cause },
    `chat upstream failure: ${what} (error id ${errorId})`,
  );
  return upstreamError(`Upstream model server failure: ${what} (error id ${errorId})`, { cause });
}

/** Error for a non-2xx answer: 1261 when the upstream says the prompt is too long, else 1234. */
export function statusError(options: UpstreamLabel, status: number, body: string): ApiError {
  const message = upstreamMessage(body);
  if (isContextLengthError(status, body)) {
    return contextExceeded(`Prompt exceeds the model's context window (upstream: ${message.slice(0, 300)})`);
  }
  // A 4xx says the server is fine but refused this request; timeouts and rate limits are about the server.
  const refused = status >= 400 && status < 500 && status !== 408 && status !== 429;
  return upstreamFailure(
    options,
    `upstream answered HTTP ${status}`,
    { status, upstreamMessage: message },
    refused ? new RequestRefusedByBackend(status, message) : undefined,
  );
}

/** A short, address-free name for a transport failure (clients see it; the log has the full error). */
export function describeCause(err: unknown): string {
  if (isNetError(err)) return err.message;
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? code : err.name;
  }
  return 'unknown error';
}
