import type { Store } from '../../stores/types.js';
import { type Actor, type AuditService, SYSTEM } from '../audit/audit-service.js';
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
 * Administrative acts on keys, whoever asks (the CLI, `/admin`, the console): each is done through
 * the key service and recorded in the audit log with who did it, before and after.
 */
export class KeyAdmin {
  constructor(
    private readonly keys: KeyService,
    private readonly store: Store,
    private readonly audit: AuditService,
  ) {}

  async create(actor: Actor, input: NewHeldKey): Promise<Awaited<ReturnType<KeyService['create']>>> {
    const { accountId, ...key } = input;
    const created = await this.keys.create(key);
    if (accountId !== undefined) await this.store.accounts.setKeyOwner(created.record.id, accountId);
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
