/**
 * What a limiter counts under: a key's id (hex), or `account:<id>` for the limits every key of one
 * account shares. A key id never starts with `account:`, so the two never meet.
 */
const ACCOUNT = 'account:';

/** The limiter's id for an account's shared counts. */
export const accountLimiterId = (accountId: string): string => `${ACCOUNT}${accountId}`;

/** The account an `account:<id>` subject counts for; undefined for a key's id. */
export const accountOfSubject = (subject: string): string | undefined =>
  subject.startsWith(ACCOUNT) ? subject.slice(ACCOUNT.length) : undefined;
