import { notFound } from '../../errors/errors.js';
import type { AccountPolicy } from '../../stores/accounts.js';
import type { Store } from '../../stores/types.js';
import type { Actor, AuditService } from '../audit/audit-service.js';
import type { AccountPolicies } from './account-policies.js';
import { modelList } from './policy-input.js';

/** An account's policy as `/admin` and the console take it; a field left out keeps its value, null is the default. */
export interface AccountPolicyInput {
  concurrent?: number | null | undefined;
  requests_per_minute?: number | null | undefined;
  max_keys?: number | null | undefined;
  models?: string[] | null | undefined;
  /** Usage windows all its keys count towards together; [] = none, null = the default (`accounts.windows`). */
  windows?: LimitWindow[] | null | undefined;
}

type LimitWindow = { requests: number; hours: number };

export interface AccountPolicyView {
  account_id: string;
  /** The account's own settings; null = the configured default. */
  own: {
    concurrent: number | null;
    requests_per_minute: number | null;
    max_keys: number | null;
    models: string[];
    windows: LimitWindow[] | null;
  };
  /** What its keys share now (0 = no limit; no models = every model; no windows = none). */
  effective: {
    concurrent: number;
    requests_per_minute: number;
    max_keys: number;
    models: string[];
    windows: LimitWindow[];
  };
  active_keys: number;
}

const FIELDS = [
  ['concurrent', 'concurrent'],
  ['requests_per_minute', 'requestsPerMinute'],
  ['max_keys', 'maxKeys'],
] as const;

const ownView = (own: AccountPolicy | undefined): AccountPolicyView['own'] => ({
  concurrent: own?.concurrent ?? null,
  requests_per_minute: own?.requestsPerMinute ?? null,
  max_keys: own?.maxKeys ?? null,
  models: own?.models ?? [],
  windows: own?.windows ?? null,
});

/**
 * The admin's view and changes of an account's own policy (limits its keys share, model allowlist,
 * key cap), from `/admin` and the console alike; each change is in the audit log, before and after.
 */
export class AccountPolicyAdmin {
  constructor(
    private readonly store: Store,
    private readonly policies: AccountPolicies,
    private readonly audit: AuditService,
  ) {}

  async view(accountId: string): Promise<AccountPolicyView> {
    if (!(await this.store.accounts.getAccount(accountId))) throw notFound(`Account ${accountId} does not exist`);
    return this.viewOf(accountId, await this.store.accounts.accountPolicy(accountId));
  }

  /** Every account's view at once (the console's Accounts page). */
  async list(): Promise<AccountPolicyView[]> {
    const [accounts, keys, owners] = await Promise.all([
      this.store.accounts.listAccounts(),
      this.store.listKeys(),
      this.store.accounts.keyOwners(),
    ]);
    const active = new Map<string, number>();
    for (const k of keys) {
      const owner = owners.get(k.id);
      if (k.revokedAt === undefined && owner !== undefined) active.set(owner, (active.get(owner) ?? 0) + 1);
    }
    return Promise.all(
      accounts.map(async (a) => ({
        ...(await this.viewOf(a.id, await this.store.accounts.accountPolicy(a.id), 0)),
        active_keys: active.get(a.id) ?? 0,
      })),
    );
  }

  async change(actor: Actor, accountId: string, input: AccountPolicyInput): Promise<AccountPolicyView> {
    if (!(await this.store.accounts.getAccount(accountId))) throw notFound(`Account ${accountId} does not exist`);
    const before = await this.store.accounts.accountPolicy(accountId);
    const next: AccountPolicy = { ...before };
    for (const [field, own] of FIELDS) {
      const value = input[field];
      if (value === undefined) continue;
      if (value === null) delete next[own];
      else next[own] = value;
    }
    if (input.models !== undefined) {
      const models = modelList('models', input.models ?? []);
      if (models.length) next.models = models;
      else delete next.models;
    }
    if (input.windows === null) delete next.windows;
    else if (input.windows !== undefined)
      next.windows = input.windows.map((w) => ({ requests: w.requests, hours: w.hours }));
    const policy = Object.keys(next).length ? next : undefined;
    if (!(await this.policies.set(accountId, policy))) throw notFound(`Account ${accountId} does not exist`);
    const [was, now] = [ownView(before), ownView(policy)];
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      await this.audit.record(actor, {
        action: 'account.policy',
        target: `account:${accountId}`,
        before: was,
        after: now,
      });
    }
    return this.viewOf(accountId, policy);
  }

  private async viewOf(
    accountId: string,
    own: AccountPolicy | undefined,
    activeKeys?: number,
  ): Promise<AccountPolicyView> {
    const held = this.policies.resolve(accountId, own);
    return {
      account_id: accountId,
      own: ownView(own),
      effective: {
        concurrent: held.limits.concurrent,
        requests_per_minute: held.limits.requests_per_minute,
        max_keys: held.maxKeys,
        models: held.models ?? [],
        windows: held.limits.windows,
      },
      active_keys: activeKeys ?? (await this.policies.activeKeys(accountId)),
    };
  }
}
