import type { KeyLimits } from '../../config/schema.js';
import type { Endpoint, KeyPolicy, KeySettings, Store } from '../../stores/types.js';
import { type Actor, type AuditService, SYSTEM } from '../audit/audit-service.js';
import type { AccountPolicies } from './account-policies.js';
import { type KeyService, type NewKey, toKeyView } from './key-service.js';

/** A key's state as the audit log keeps it: its view (never the secret) and its holder. */
const auditState = (view: ReturnType<typeof toKeyView>, account: string | undefined) => ({
  ...view,
  account: account ?? null,
});

export interface NewHeldKey extends NewKey {
  /** The account that holds the key; none = the admin's. */
  accountId?: string | undefined;
}

/**
 * A change of a key's settings. A field left out keeps its value; `null` clears a field that may be
 * empty: `limits: null` returns the key to the configured limits, `policy: null` lifts every
 * restriction. `undefined` is not a value here, so "leave it" and "clear it" cannot be confused.
 */
export interface KeyChange {
  name?: string;
  endpoints?: Endpoint[];
  limits?: KeyLimits | null;
  policy?: KeyPolicy | null;
}

/** A clearable field after a change: absent keeps `was`, null clears it, a value replaces it. */
const changed = <T>(next: T | null | undefined, was: T | undefined): T | undefined =>
  next === undefined ? was : (next ?? undefined);

/**
 * Administrative acts on keys, whoever asks (the CLI, `/admin`, the console): each is done through
 * the key service and recorded in the audit log with who did it, before and after.
 */
export class KeyAdmin {
  constructor(
    private readonly keys: KeyService,
    private readonly store: Store,
    private readonly audit: AuditService,
    private readonly accounts?: AccountPolicies,
  ) {}

  async create(actor: Actor, input: NewHeldKey): Promise<Awaited<ReturnType<KeyService['create']>>> {
    const { accountId, ...key } = input;
    // The cap is checked by the store in the insert's own transaction (simultaneous creations from
    // any process never pass it); without the account policies there is no cap.
    const maxKeys = accountId === undefined ? 0 : ((await this.accounts?.forAccount(accountId))?.maxKeys ?? 0);
    const created = await this.keys.create(key, accountId === undefined ? undefined : { accountId, maxKeys });
    await this.audit.record(actor, {
      action: 'key.create',
      target: `key:${created.record.id}`,
      after: auditState(toKeyView(created.record), accountId),
    });
    return created;
  }

  /** The admin key made on first start (KeyService.ensureAdminKey), recorded as the server's own act. */
  async ensureAdminKey(): Promise<string | undefined> {
    const made = await this.keys.ensureAdminKey();
    if (made === undefined) return undefined;
    const record = await this.keys.get(made.split('.')[0]!);
    await this.audit.record(SYSTEM, {
      action: 'key.create',
      target: record && `key:${record.id}`,
      after: record && auditState(toKeyView(record), undefined),
    });
    return made;
  }

  /**
   * Changes a key's settings (see KeyChange); the key as it now is, or undefined when there is no
   * such key. A change that changes nothing is not recorded.
   */
  async update(actor: Actor, id: string, change: KeyChange) {
    const before = await this.keys.get(id);
    if (!before) return undefined;
    const settings: KeySettings = {
      name: change.name ?? before.name,
      endpoints: change.endpoints ?? before.endpoints,
      limits: changed(change.limits, before.limits),
      policy: changed(change.policy, before.policy),
    };
    const after = await this.keys.update(id, settings);
    if (!after) return undefined;
    const owner = await this.store.accounts.keyOwner(id);
    const [was, now] = [auditState(toKeyView(before), owner), auditState(toKeyView(after), owner)];
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      await this.audit.record(actor, { action: 'key.update', target: `key:${id}`, before: was, after: now });
    }
    return after;
  }

  /** Rolls a key (KeyService.roll); undefined when there is no such key or it is revoked. */
  async roll(actor: Actor, id: string, graceMs: number) {
    const before = await this.keys.get(id);
    const rolled = before && (await this.keys.roll(id, graceMs));
    if (!before || !rolled) return undefined;
    const owner = await this.store.accounts.keyOwner(id);
    await this.audit.record(actor, {
      action: 'key.roll',
      target: `key:${id}`,
      before: auditState(toKeyView(before), owner),
      after: auditState(toKeyView(rolled.record), owner),
    });
    return rolled;
  }

  /** Revokes a key; false when there is no such key. Revoking a revoked key changes and records nothing. */
  async revoke(actor: Actor, id: string): Promise<boolean> {
    const before = await this.keys.get(id);
    if (!before) return false;
    await this.keys.revoke(id);
    if (before.revokedAt !== undefined) return true;
    const after = await this.keys.get(id);
    const owner = (await this.store.accounts.keyOwners()).get(id);
    await this.audit.record(actor, {
      action: 'key.revoke',
      target: `key:${id}`,
      before: auditState(toKeyView(before), owner),
      after: after && auditState(toKeyView(after), owner),
    });
    return true;
  }
}
