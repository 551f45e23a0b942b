import type { ApiError } from '../../errors/api-error.js';
import { upstreamFailure as upstreamError } from '../../errors/errors.js';
import { isNetError, netApiError } from '../../net/net-error.js';

/**
 * The reader's failures as API errors. The client's URL is the field at fault (1214) when it is
 * malformed or points somewhere the server will not go; everything that goes wrong on the far side
 * (DNS, status, size, time, content) is an upstream failure (1234).
 */
export const upstreamFailure = (url: string, reason: string, cause?: unknown): ApiError =>
  upstreamError(`Reader could not read ${url}: ${reason}`, cause === undefined ? {} : { cause });

/** A fetch's failure (src/net's vocabulary) as the reader's error; anything else as it is. */
export function readerFetchError(error: unknown, url: string): unknown {
  return isNetError(error) ? netApiError(error, 'url', `Reader could not read ${url}`) : error;
}
