import { ApiError } from '../../errors/api-error.js';

/** The refusals every limiter gives, worded alike whichever counted. */
export const tooManyConcurrent = (limit: number) =>
  new ApiError(1302, `Too many concurrent requests: this key allows ${limit} at a time`, { retryAfter: 1 });

export const tooManyPerMinute = (limit: number, retryMs: number) =>
  new ApiError(1303, `Too many requests: this key allows ${limit} per minute`, { retryAfter: retryMs / 1000 });

export const windowExhausted = (requests: number, hours: number, resetsAt: number, now: number) =>
  new ApiError(
    1308,
    `Usage limit reached: ${requests} requests per ${hours} hours; it resets at ${new Date(resetsAt).toISOString()}`,
    { retryAfter: (resetsAt - now) / 1000 },
  );
