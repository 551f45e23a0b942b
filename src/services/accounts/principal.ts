import type { AccountRecord } from '../../stores/accounts.js';

/**
 * Who a console session acts for: the admin sees everything, an account holder only their own.
 * The admin's `keyId` is the admin key the session was opened with (`admin` for the configured one).
 */
export type Principal = { kind: 'admin'; keyId?: string | undefined } | { kind: 'account'; account: AccountRecord };

/** The audit log's actor for a principal: the admin key behind an admin session, or the account. */
export const actorId = (p: Principal): string =>
  p.kind === 'admin' ? `key:${p.keyId ?? 'admin'}` : `account:${p.account.id}`;

export interface AccountView {
  id: string;
  name: string;
  email: string;
  created_at: number;
  disabled_at: number | null;
}

export const toAccountView = (a: AccountRecord): AccountView => ({
  id: a.id,
  name: a.name,
  email: a.email,
  created_at: Math.floor(a.createdAt / 1000),
  disabled_at: a.disabledAt === undefined ? null : Math.floor(a.disabledAt / 1000),
});

export const principalView = (p: Principal) =>
  p.kind === 'admin'
    ? { kind: 'admin' as const, name: 'Admin' }
    : { kind: 'account' as const, ...toAccountView(p.account) };
