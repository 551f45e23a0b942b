import type { OpenAiErrorReply } from '../api/responses-reply.js';
import type { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';

/**
 * OpenAI's names for the codes that clients of that API act on (docs/wire.md, "Responses"): Codex,
 * for one, stops on `insufficient_quota` and `context_length_exceeded` and backs off on
 * `rate_limit_exceeded`. Every other code goes out as the API's number, as a string.
 */
const OPENAI_CODES: Partial<Record<ErrorCode, string>> = {
  1000: 'invalid_api_key',
  1001: 'invalid_api_key',
  1002: 'invalid_api_key',
  1003: 'invalid_api_key',
  1004: 'invalid_api_key',
  1113: 'insufficient_quota',
  1211: 'model_not_found',
  1222: 'unknown_url',
  1261: 'context_length_exceeded',
  1302: 'rate_limit_exceeded',
  1303: 'rate_limit_exceeded',
  1305: 'server_is_overloaded',
  1308: 'insufficient_quota',
};

/** The error `type` by HTTP status, as the OpenAI API names them. */
function errorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return status === 503 ? 'service_unavailable_error' : 'server_error';
  return 'invalid_request_error';
}

/** The body of a failed call in OpenAI's shape: `{"error": {"message", "type", "param", "code"}}`. */
export function openAiErrorBody(err: ApiError): OpenAiErrorReply {
  return {
    error: {
      message: err.message,
      type: errorType(err.status),
      param: err.field ?? null,
      code: OPENAI_CODES[err.code] ?? String(err.code),
    },
  };
}
