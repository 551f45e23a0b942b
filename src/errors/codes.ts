/**
 * The one closed list of API error codes (docs/wire.md, "Errors"). Each code has its HTTP status, whether a
 * client retry can help, and a message template. docs/errors.md is checked against this list by a test.
 */
export interface ErrorCodeSpec {
  readonly status: number;
  readonly retryable: boolean;
  readonly meaning: string;
}

export const ERROR_CODES = {
  500: {
    status: 500,
    retryable: true,
    meaning: 'Internal error; details are only in the server log, under the request id.',
  },
  1000: { status: 401, retryable: false, meaning: 'Authentication failed.' },
  1001: { status: 401, retryable: false, meaning: 'No `Authorization` header.' },
  1002: { status: 401, retryable: false, meaning: 'Invalid token: unknown key, malformed key or JWT, bad signature.' },
  1003: { status: 401, retryable: false, meaning: 'Token expired (JWT `exp` in the past).' },
  1004: { status: 401, retryable: false, meaning: 'Key revoked or disabled.' },
  1113: {
    status: 429,
    retryable: false,
    meaning:
      "Key's token or credit quota exhausted: the account's balance, or a budget of the key or its account, does not cover the call's worst case (docs/billing.md).",
  },
  1210: {
    status: 400,
    retryable: false,
    meaning:
      "Malformed request: body is not JSON or not an object (400), a content type the route does not take (415), or body over the route's limit (413).",
  },
  1211: {
    status: 400,
    retryable: false,
    meaning: 'Model does not exist (not in the enum, or not configured on this server).',
  },
  1212: { status: 400, retryable: false, meaning: 'Model does not support this call method.' },
  1213: { status: 400, retryable: false, meaning: 'Required field missing.' },
  1214: {
    status: 400,
    retryable: false,
    meaning: 'Invalid field: type, range, pattern, length, enum or combination rule.',
  },
  1215: { status: 400, retryable: false, meaning: 'Two fields that cannot be set together.' },
  1220: { status: 403, retryable: false, meaning: 'Key has no permission for this operation (scope, endpoint).' },
  1222: { status: 404, retryable: false, meaning: 'API does not exist (unknown path or method).' },
  1231: { status: 400, retryable: false, meaning: '`request_id` already used by this key.' },
  1233: { status: 404, retryable: false, meaning: 'Task or conversation does not exist, or belongs to another key.' },
  1234: {
    status: 502,
    retryable: true,
    meaning: 'Upstream or backend failure; the error id is also in the server log.',
  },
  1261: { status: 400, retryable: false, meaning: "Prompt exceeds the model's context window." },
  1301: { status: 400, retryable: false, meaning: 'Unsafe or sensitive content in the input.' },
  1302: { status: 429, retryable: true, meaning: 'Too many concurrent requests for this key.' },
  1303: { status: 429, retryable: true, meaning: 'Too many requests per minute for this key.' },
  1305: {
    status: 503,
    retryable: true,
    meaning:
      'Server overloaded (queue full), or a dependency it needs is unavailable (the database unreachable or full; the message names the cause); retry later.',
  },
  1308: { status: 429, retryable: false, meaning: 'Usage window limit reached; the message says when it resets.' },
} as const satisfies Record<number, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODES;
