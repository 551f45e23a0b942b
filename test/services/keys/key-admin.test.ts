import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditService } from '../../../src/services/audit/audit-service.js';
import { KeyAdmin } from '../../../src/services/keys/key-admin.js';
import { KeyService } from '../../../src/services/keys/key-service.js';
import { SecretBox } from '../../../src/services/keys/secret-box.js';
import { SqliteStore } from '../../../src/stores/sqlite/sqlite-store.js';

const actor = { id: 'admin' };
const limits = { concurrent: 2, requests_per_minute: 30, windows: [] };
const policy = { models: ['gen-4.6'], description: 'ci' };

describe('KeyAdmin.update: a field left out keeps its value, null clears it, a value replaces it', () => {
  let dir: string;
  let store: SqliteStore;
  let admin: KeyAdmin;
  let audit: AuditService;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'gen-platform-key-admin-'));
    store = new SqliteStore(path.join(dir, 'keys.db'));
    audit = new AuditService(store.audit);
    admin = new KeyAdmin(new KeyService({ store, box: new SecretBox(randomBytes(32)) }), store, audit);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const keyWithEverything = async () =>
    (await admin.create(actor, { name: 'full', endpoints: ['general', 'coding'], limits, policy })).record.id;

  it('an empty change keeps every setting and records nothing', async () => {
    const id = await keyWithEverything();
    const after = await admin.update(actor, id, {});
    expect(after).toMatchObject({ name: 'full', endpoints: ['general', 'coding'], limits, policy });
    const updates = await audit.list({ action: 'key.update', target: `key:${id}`, limit: 10 });
    expect(updates).toEqual([]);
  });

  it('a name or endpoints alone change only themselves', async () => {
    const id = await keyWithEverything();
    expect(await admin.update(actor, id, { name: 'renamed' })).toMatchObject({
      name: 'renamed',
      endpoints: ['general', 'coding'],
      limits,
      policy,
    });
    expect(await admin.update(actor, id, { endpoints: ['coding'] })).toMatchObject({
      name: 'renamed',
      endpoints: ['coding'],
      limits,
      policy,
    });
  });

  it('limits: a value replaces them, null returns the key to the configured limits', async () => {
    const id = await keyWithEverything();
    const wider = { concurrent: 8, requests_per_minute: 600, windows: [{ requests: 100, hours: 5 }] };
    expect((await admin.update(actor, id, { limits: wider }))?.limits).toEqual(wider);
    const cleared = await admin.update(actor, id, { limits: null });
    expect(cleared?.limits).toBeUndefined();
    expect(cleared).toMatchObject({ name: 'full', policy });
    expect((await store.getKey(id))?.limits).toBeUndefined();
  });

  it('policy: a value replaces it, null lifts every restriction', async () => {
    const id = await keyWithEverything();
    const narrower = { models: ['gen-4.5*'] };
    expect((await admin.update(actor, id, { policy: narrower }))?.policy).toEqual(narrower);
    const cleared = await admin.update(actor, id, { policy: null });
    expect(cleared?.policy).toBeUndefined();
    expect(cleared).toMatchObject({ name: 'full', limits });
    expect((await store.getKey(id))?.policy).toBeUndefined();
  });

  it('records a change with the key before and after', async () => {
    const id = await keyWithEverything();
    await admin.update(actor, id, { limits: null });
    const [record] = await audit.list({ action: 'key.update', target: `key:${id}`, limit: 10 });
    expect(record?.actor).toBe('admin');
    expect(record?.before).toMatchObject({ limits: { concurrent: 2 } });
    expect(record?.after).toMatchObject({ limits: null });
  });

  it('answers undefined for a key that does not exist', async () => {
    expect(await admin.update(actor, 'nope', { name: 'x' })).toBeUndefined();
  });
});
