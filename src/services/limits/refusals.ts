import * as errors from '../../errors/errors.js';
import { accountOfSubject } from './subjects.js';

/** Limits shared by an account's keys are counted under `account:<id>`; the rest under the key's id. */
const holder = (subject: string) => (accountOfSubject(subject) === undefined ? 'this key' : 'this account');

/** The refusals every limiter gives, worded alike whichever counted. */
export const tooManyConcurrent = (limit: number, subject: string) =>
  errors.tooManyConcurrent(`Too many concurrent requests: ${holder(subject)} allows ${limit} at a time`, {
    retryAfter: 1,
  });

export const tooManyPerMinute = (limit: number, retryMs: number, subject: string) =>
  errors.tooManyPerMinute(`Too many requests: ${holder(subject)} allows ${limit} per minute`, {
    retryAfter: retryMs / 1000,
  });

export const windowExhausted = (requests: number, hours: number, resetsAt: number, now: number, subject: string) =>
  errors.usageWindowReached(
    `Usage limit reached: ${holder(subject)} allows ${requests} requests per ${hours} hours; it resets at ${new Date(resetsAt).toISOString()}`,
    { retryAfter: (resetsAt - now) / 1000 },
  );
