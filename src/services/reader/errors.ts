import type { ApiError } from '../../errors/api-error.js';
import { invalidRequest, upstreamFailure as upstreamError } from '../../errors/errors.js';

/**
 * The reader's refusals and failures as API errors. The client's URL is the field at fault (1214)
 * when it is malformed or points somewhere the server will not go; everything that goes wrong on the
 * far side (DNS, status, size, time, content) is an upstream failure (1234).
 */

export const badUrl = (url: string, rule: string): ApiError => invalidRequest(`Invalid url: ${rule} (${url})`);

export const blockedUrl = (url: string, detail: string): ApiError =>
  invalidRequest(`Invalid url: ${url} is refused: ${detail}; the reader does not reach private networks`);

export const upstreamFailure = (url: string, reason: string, cause?: unknown): ApiError =>
  upstreamError(`Reader could not read ${url}: ${reason}`, cause === undefined ? {} : { cause });
