import * as errors from '../../errors/errors.js';

/** The refusals every limiter gives, worded alike whichever counted. */
export const tooManyConcurrent = (limit: number) =>
  errors.tooManyConcurrent(`Too many concurrent requests: this key allows ${limit} at a time`, { retryAfter: 1 });

export const tooManyPerMinute = (limit: number, retryMs: number) =>
  errors.tooManyPerMinute(`Too many requests: this key allows ${limit} per minute`, { retryAfter: retryMs / 1000 });

export const windowExhausted = (requests: number, hours: number, resetsAt: number, now: number) =>
  errors.usageWindowReached(
    `Usage limit reached: ${requests} requests per ${hours} hours; it resets at ${new Date(resetsAt).toISOString()}`,
    { retryAfter: (resetsAt - now) / 1000 },
  );
