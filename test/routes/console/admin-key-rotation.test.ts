import { afterEach, describe, expect, it } from 'vitest';
import { AccountService } from '../../../src/services/accounts/account-service.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, signIn } from './support.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('a console session opened with the configured admin key', () => {
  it('ends when the admin key is replaced, and lives on while it is the same', async () => {
    t = await createTestApp({ security: { admin_key: ADMIN_KEY } });
    const client = await signIn(t.app, { admin_key: ADMIN_KEY });
    expect((await client.call('GET', '/console/api/session')).status).toBe(200);
    const token = decodeURIComponent(client.cookie.split('=').slice(1).join('='));
    // The same store seen by a server started again: once with the same key, once with a new one.
    const restarted = (adminKey: string) =>
      new AccountService({
        store: t!.services.store,
        keys: t!.services.keys,
        audit: t!.services.audit,
        sessionMs: 3_600_000,
        signInAttempts: 5,
        configuredAdmin: true,
        configuredAdminKey: adminKey,
      });
    expect((await restarted(ADMIN_KEY).resume(token))?.principal).toEqual({ kind: 'admin', keyId: 'admin' });
    expect(await restarted('a-rotated-admin-key-9876543210').resume(token)).toBeUndefined();
  });
});
