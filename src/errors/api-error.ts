import { ERROR_CODES, type ErrorCode } from './codes.js';

export interface ApiErrorOptions {
  cause?: unknown;
  /** Seconds, sent as `Retry-After` on 429 and 503 answers. */
  retryAfter?: number;
  /** The request field the error is about, as a client wrote it (`input[2].content`). */
  field?: string;
  /** An HTTP status that says more than the code's own (413, 415 for a 1210); the code stays. */
  status?: number;
}

/** An error that the API answers with its own code and message; anything else is a 500. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly retryAfter: number | undefined;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = options.status ?? ERROR_CODES[code].status;
    this.retryable = ERROR_CODES[code].retryable;
    this.retryAfter = options.retryAfter;
    this.field = options.field;
  }
}
