import { randomBytes } from 'node:crypto';

/** The test Redis; CI starts it, so a missing server is a failure, not a skip. */
export const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

/** A key prefix no other test (or test run) uses. */
export const freshPrefix = (): string => `gp-test:${randomBytes(6).toString('hex')}:`;
