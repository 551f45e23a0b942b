import type { KeyLimits } from '../../config/schema.js';
import { forbidden, invalidRequest, notFound } from '../../errors/errors.js';
import type { DailyUsageRow } from '../../stores/accounts.js';
import type { Endpoint, KeyRecord, Store } from '../../stores/types.js';
import type { KeyAdmin } from '../keys/key-admin.js';
import { type KeyService, type KeyView, toKeyView } from '../keys/key-service.js';
import { applyPolicy, type PolicyInput } from '../keys/policy-input.js';
import type { UsageRecorder } from '../usage/usage-recorder.js';
import { actorId, type Principal } from './principal.js';

export interface ConsoleKeyView extends KeyView {
  status: 'active' | 'revoked';
  last_used_at: number | null;
  /** The holder; null = the admin's key. */
  account_id: string | null;
}

export interface NewConsoleKey {
  name: string;
  endpoints?: Endpoint[] | undefined;
  limits?: Partial<Pick<KeyLimits, 'concurrent' | 'requests_per_minute'>> | undefined;
  /** Admin only: the account that will hold the key. */
  accountId?: string | undefined;
  policy?: PolicyInput | undefined;
}

/** Keys and usage as a console principal may see them: the admin all, an account holder their own. */
export class KeyAccess {
  constructor(
    private readonly store: Store,
    private readonly keys: KeyService,
    private readonly admin: KeyAdmin,
    private readonly usage: UsageRecorder,
    private readonly defaults: KeyLimits,
  ) {}

  async visibleKeys(principal: Principal): Promise<{ key: KeyRecord; owner: string | undefined }[]> {
    const [all, owners] = await Promise.all([this.keys.list(), this.store.accounts.keyOwners()]);
    const withOwner = all.map((key) => ({ key, owner: owners.get(key.id) }));
    if (principal.kind === 'admin') return withOwner;
    return withOwner.filter((k) => k.owner === principal.account.id);
  }

  async list(principal: Principal): Promise<ConsoleKeyView[]> {
    const visible = await this.visibleKeys(principal);
    await this.usage.flush();
    const last = await this.store.accounts.lastUsed(visible.map((k) => k.key.id));
    return visible.map(({ key, owner }) => ({
      ...toKeyView(key),
      status: key.revokedAt === undefined ? 'active' : 'revoked',
      last_used_at: last.has(key.id) ? Math.floor(last.get(key.id)! / 1000) : null,
      account_id: owner ?? null,
    }));
  }

  /** `address`: the client's, for the audit log. */
  async create(
    principal: Principal,
    input: NewConsoleKey,
    address?: string,
  ): Promise<{ key: string; view: ConsoleKeyView }> {
    let owner: string | undefined;
    if (principal.kind === 'account') {
      if (input.accountId !== undefined && input.accountId !== principal.account.id) {
        throw forbidden('An account holder creates keys for their own account only');
      }
      owner = principal.account.id;
    } else if (input.accountId) {
      const account = await this.store.accounts.getAccount(input.accountId);
      if (!account || account.disabledAt !== undefined) {
        throw invalidRequest(`Invalid account_id: no active account ${input.accountId}`);
      }
      owner = account.id;
    }
    const limits = input.limits && this.limitsFor(principal, input.limits);
    const { key, record } = await this.admin.create(
      { id: actorId(principal), address },
      {
        name: input.name,
        endpoints: input.endpoints,
        limits,
        policy: input.policy && applyPolicy(undefined, input.policy),
        accountId: owner,
      },
    );
    const view: ConsoleKeyView = {
      ...toKeyView(record),
      status: 'active',
      last_used_at: null,
      account_id: owner ?? null,
    };
    return { key, view };
  }

  async revoke(principal: Principal, id: string, address?: string): Promise<void> {
    await this.visibleKey(principal, id);
    await this.admin.revoke({ id: actorId(principal), address }, id);
  }

  /** Changes the name, endpoints or policy of one of the principal's keys. */
  async update(
    principal: Principal,
    id: string,
    change: { name?: string; endpoints?: Endpoint[]; policy: PolicyInput },
    address?: string,
  ): Promise<ConsoleKeyView> {
    const { key } = await this.visibleKey(principal, id);
    const { policy, ...rest } = change;
    await this.admin.update({ id: actorId(principal), address }, id, {
      ...rest,
      policy: applyPolicy(key.policy, policy) ?? null,
    });
    return (await this.list(principal)).find((k) => k.id === id)!;
  }

  /** Rolls one of the principal's active keys; the new key is in this answer only. */
  async roll(
    principal: Principal,
    id: string,
    graceMs: number,
    address?: string,
  ): Promise<{ key: string; view: ConsoleKeyView }> {
    await this.visibleKey(principal, id);
    const rolled = await this.admin.roll({ id: actorId(principal), address }, id, graceMs);
    if (!rolled) throw invalidRequest(`API key ${id} is revoked: a revoked key cannot be rolled`);
    return { key: rolled.key, view: (await this.list(principal)).find((k) => k.id === id)! };
  }

  private async visibleKey(principal: Principal, id: string) {
    const found = (await this.visibleKeys(principal)).find((k) => k.key.id === id);
    // Another holder's key answers like a missing one: its existence is not theirs to learn.
    if (!found) throw notFound(`API key ${id} does not exist`);
    return found;
  }

  async daily(principal: Principal, since: number): Promise<{ keys: ConsoleKeyView[]; rows: DailyUsageRow[] }> {
    const keys = await this.list(principal);
    const rows = await this.store.accounts.dailyUsage(
      keys.map((k) => k.id),
      since,
    );
    return { keys, rows };
  }

  /**
   * An account holder may tighten the configured defaults, never loosen them: a value of 0 (no
   * limit) or above a non-zero default is refused. The admin sets any limits.
   */
  private limitsFor(principal: Principal, asked: NonNullable<NewConsoleKey['limits']>): KeyLimits {
    const limits: KeyLimits = {
      concurrent: asked.concurrent ?? this.defaults.concurrent,
      requests_per_minute: asked.requests_per_minute ?? this.defaults.requests_per_minute,
      windows: this.defaults.windows,
    };
    if (principal.kind === 'account') {
      for (const field of ['concurrent', 'requests_per_minute'] as const) {
        const cap = this.defaults[field];
        if (cap > 0 && (limits[field] === 0 || limits[field] > cap)) {
          throw invalidRequest(`Invalid limits.${field}: must be between 1 and ${cap} (the server's default)`);
        }
      }
    }
    return limits;
  }
}
