import type { AccountRecord } from '../../stores/accounts.js';

/** Who a console session acts for: the admin sees everything, an account holder only their own. */
export type Principal = { kind: 'admin' } | { kind: 'account'; account: AccountRecord };

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
