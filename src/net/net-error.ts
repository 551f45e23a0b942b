import type { ApiError } from '../errors/api-error.js';
import { invalidField, upstreamFailure } from '../errors/errors.js';

/**
 * What can go wrong with an outbound fetch, in one vocabulary for every caller (the reader, media
 * of chat and the tokenizer, image engines' outputs, SearXNG, the trace exporter):
 * - `invalid-url`: not an absolute http(s) URL (the start, or a redirect's target);
 * - `blocked`: a host or address the server does not reach (ip-ranges.ts, allow-list.ts);
 * - `dns`: the name does not resolve;
 * - `connect`: no connection (refused, reset, TLS);
 * - `timeout`: the fetch's deadline passed; `stalled`: the server stopped sending for too long;
 * - `status`: an HTTP error status; `redirects`: too many of them;
 * - `too-large`: the body (declared, or after decompression) is past its bound;
 * - `encoding`: a content encoding that cannot be decoded.
 * The message names the rule, never an address that DNS answered.
 */
export type NetFailure =
  | 'invalid-url'
  | 'blocked'
  | 'dns'
  | 'connect'
  | 'timeout'
  | 'stalled'
  | 'status'
  | 'redirects'
  | 'too-large'
  | 'encoding';

export class NetError extends Error {
  override name = 'NetError';

  constructor(
    readonly failure: NetFailure,
    message: string,
    readonly details: { status?: number; limit?: number } = {},
    cause?: unknown,
  ) {
    super(message, cause === undefined ? {} : { cause });
  }

  /** The client's URL is at fault (it is malformed or points where the server does not go). */
  get refused(): boolean {
    return this.failure === 'invalid-url' || this.failure === 'blocked';
  }
}

export const isNetError = (error: unknown): error is NetError => error instanceof NetError;

/**
 * A NetError as the API's error: a refused URL is the client's field (1214, `Invalid <field>: ...`),
 * everything that went wrong on the far side is an upstream failure (1234, `<subject>: ...`).
 * `field` names the request field (`url`, `messages[0].content[1].image_url.url`) and `subject`
 * what was being done (`Reader could not read https://...`).
 */
export function netApiError(error: NetError, field: string, subject: string): ApiError {
  if (error.refused) return invalidField(field, error.message);
  return upstreamFailure(`${subject}: ${error.message}`, { cause: error });
}
