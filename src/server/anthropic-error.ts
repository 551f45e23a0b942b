import type { AnthropicErrorReply } from '../api/anthropic-reply.js';
import type { ApiError } from '../errors/api-error.js';
import { foreignErrorStatus } from './error-body.js';

type ErrorType = AnthropicErrorReply['error']['type'];

/** The error `type` by HTTP status, as Anthropic's API names them (its SDKs pick error classes by status). */
export function anthropicErrorType(status: number): ErrorType {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/**
 * The body of a failed call in Anthropic's shape: `{"type":"error","error":{"type","message"}}`. The
 * message keeps the API's code, so that docs/errors.md still explains it.
 */
export function anthropicErrorBody(err: ApiError): AnthropicErrorReply {
  return {
    type: 'error',
    error: { type: anthropicErrorType(foreignErrorStatus(err)), message: `${err.message} (code ${err.code})` },
  };
}
