import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../../src/cli/keys.js';
import { DATABASE_URL, freshSchema } from '../../helpers/postgres.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, signIn } from '../console/support.js';

type Json = Record<string, unknown>;
const UPSTREAM = { engine: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'stand-in' };

/**
 * Per-key governance over the API: models allowlist (codes and patterns), expiry, allowed
 * addresses and a description, set at creation by /admin, the console and the CLI, changed by
 * PATCH, and rolled; `/models` lists only what the key may call; each act is audited.
 */
for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`key governance over /admin, the console and the CLI (${backend})`, () => {
    let t: TestApp;
    let drop: (() => Promise<void>) | undefined;
    const admin = { authorization: `Bearer ${ADMIN_KEY}` };
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, address = '198.51.100.1') => {
      const res = await t.app.inject({
        method,
        url,
        headers: admin,
        remoteAddress: address,
        ...(payload === undefined ? {} : { payload: payload as Json }),
      });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const use = async (key: string, model: string, address = '127.0.0.1') => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/paas/v4/chat/completions',
        headers: { authorization: `Bearer ${key}` },
        remoteAddress: address,
        payload: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 1 },
      });
      return (res.json() as { code?: number }).code ?? res.statusCode;
    };
    const listed = async (key: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/paas/v4/models',
        headers: { authorization: `Bearer ${key}` },
      });
      return (res.json() as { data: { id: string }[] }).data.map((m) => m.id);
    };

    beforeAll(async () => {
      const models = {
        'gen-4.6': { deployments: [UPSTREAM] },
        'gen-4.5': { deployments: [UPSTREAM] },
        'gen-4.5-air': { deployments: [UPSTREAM] },
        'gen-4.7': { deployments: [UPSTREAM] },
      };
      const database = backend === 'postgres' ? await freshSchema() : undefined;
      drop = database?.drop;
      t = await createTestApp({
        security: { admin_key: ADMIN_KEY },
        models,
        ...(database ? { database: { url: DATABASE_URL, schema: database.schema } } : {}),
      });
    });
    afterAll(async () => {
      await t?.close();
      await drop?.();
    });

    it('creates a key with models and expires_at over /admin; calls outside them answer 1220 and /models lists only the allowed', async () => {
      const made = await call('POST', '/admin/keys', {
        name: 'limited',
        models: ['gen-4.6', 'gen-4.5*'],
        expires_at: '2099-12-31T00:00:00Z',
        description: 'for the build',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toMatchObject({
        models: ['gen-4.6', 'gen-4.5*'],
        expires_at: Date.UTC(2099, 11, 31) / 1000,
        allowed_ips: [],
        description: 'for the build',
      });
      const key = made.body['key'] as string;
      // Allowed models get past the allowlist (the stand-in upstream is down: 1234, never 1220).
      expect(await use(key, 'gen-4.6')).not.toBe(1220);
      expect(await use(key, 'gen-4.5-air')).not.toBe(1220);
      expect(await use(key, 'gen-4.7')).toBe(1220);
      expect(await listed(key)).toEqual(['gen-4.6', 'gen-4.5', 'gen-4.5-air']);
      expect(await listed(t.key)).toContain('gen-4.7');
    });

    it('refuses bad fields with 1214 naming the field', async () => {
      const bad = await call('POST', '/admin/keys', { name: 'x', allowed_ips: ['10.0.0.0/99'] });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ code: 1214, message: expect.stringContaining('allowed_ips') });
      const expiry = await call('POST', '/admin/keys', { name: 'x', expires_at: 'tomorrow' });
      expect(expiry.body).toMatchObject({ code: 1214, message: expect.stringContaining('expires_at') });
      const unknown = await call('PATCH', '/admin/keys/ffffffffffffffffffffffffffffffff', { description: 'x' });
      expect(unknown.status).toBe(404);
    });

    it('changes a key by PATCH (expired at once, addresses, models), audited with before and after', async () => {
      const made = await call('POST', '/admin/keys', { name: 'changing' });
      const { id, key } = made.body as { id: string; key: string };
      expect(await use(key, 'gen-4.7')).not.toBe(1220);
      const narrowed = await call(
        'PATCH',
        `/admin/keys/${id}`,
        { models: ['gen-4.6'], allowed_ips: ['10.0.0.0/8'] },
        '198.51.100.77',
      );
      expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
      expect(narrowed.body).toMatchObject({ id, name: 'changing', models: ['gen-4.6'], allowed_ips: ['10.0.0.0/8'] });
      expect(await use(key, 'gen-4.7', '10.1.1.1')).toBe(1220);
      expect(await use(key, 'gen-4.6', '203.0.113.5')).toBe(1220);
      expect(await use(key, 'gen-4.6', '10.1.1.1')).not.toBe(1220);
      const past = Math.floor(Date.now() / 1000) - 1;
      await call('PATCH', `/admin/keys/${id}`, { expires_at: past });
      expect(await use(key, 'gen-4.6', '10.1.1.1')).toBe(1003);
      const reopened = await call('PATCH', `/admin/keys/${id}`, { expires_at: null, allowed_ips: [], models: [] });
      expect(reopened.body).toMatchObject({ expires_at: null, allowed_ips: [], models: [] });
      expect(await use(key, 'gen-4.7')).not.toBe(1220);

      const audit = await call('GET', `/admin/audit?target=key:${id}&action=key.update`);
      const rows = audit.body['data'] as Json[];
      expect(rows).toHaveLength(3);
      expect(rows[2]).toMatchObject({
        actor: 'key:admin',
        address: '198.51.100.77',
        before: { models: [], allowed_ips: [] },
        after: { models: ['gen-4.6'], allowed_ips: ['10.0.0.0/8'] },
      });
      expect(JSON.stringify(audit.body)).not.toContain(key.split('.')[1]);
    });

    it('rolls a key over /admin: new secret, same id and settings, the old one works for the grace period', async () => {
      const made = await call('POST', '/admin/keys', { name: 'rolling', models: ['gen-4.6'] });
      const { id, key: old } = made.body as { id: string; key: string };
      const rolled = await call('POST', `/admin/keys/${id}/roll`, { grace_seconds: 3600 });
      expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
      const fresh = rolled.body['key'] as string;
      expect(rolled.body).toMatchObject({
        id,
        name: 'rolling',
        models: ['gen-4.6'],
        previous_secret_until: expect.any(Number),
      });
      expect(fresh.startsWith(`${id}.`)).toBe(true);
      expect(await use(fresh, 'gen-4.7')).toBe(1220);
      expect(await use(old, 'gen-4.7')).toBe(1220);
      const now = await call('POST', `/admin/keys/${id}/roll`, {});
      expect(await use(fresh, 'gen-4.6')).toBe(1002);
      expect(await use(now.body['key'] as string, 'gen-4.7')).toBe(1220);
      const audit = await call('GET', `/admin/audit?target=key:${id}&action=key.roll`);
      expect((audit.body['data'] as Json[]).length).toBe(2);
      const text = JSON.stringify(audit.body);
      for (const k of [old, fresh, now.body['key'] as string]) expect(text).not.toContain(k.split('.')[1]);
    });

    it('the console creates, changes and rolls a key with the same fields', async () => {
      const console = await signIn(t.app, { admin_key: ADMIN_KEY });
      const made = await console.call('POST', '/console/api/keys', {
        name: 'console-made',
        models: ['gen-4.5*'],
        allowed_ips: ['127.0.0.1'],
        description: 'made in the console',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      expect(made.body).toMatchObject({
        models: ['gen-4.5*'],
        allowed_ips: ['127.0.0.1'],
        description: 'made in the console',
      });
      const id = made.body['id'] as string;
      const changed = await console.call('PATCH', `/console/api/keys/${id}`, { expires_at: '2099-01-01T00:00:00Z' });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ models: ['gen-4.5*'], expires_at: Date.UTC(2099, 0, 1) / 1000 });
      const rolled = await console.call('POST', `/console/api/keys/${id}/roll`, { grace_seconds: 60 });
      expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
      expect(await use(rolled.body['key'] as string, 'gen-4.5')).not.toBe(1220);
      expect(await use(rolled.body['key'] as string, 'gen-4.5', '10.0.0.1')).toBe(1220);
    });

    it('the CLI creates a key with --models and --expires, changes and rolls it', async () => {
      const out: string[] = [];
      const env = {
        cwd: t.dataDir,
        vars: { GEN_PLATFORM_DATA: t.dataDir, GEN_PLATFORM_CONFIG: path.join(t.dataDir, 'config.json') },
        out: (l: string) => out.push(l),
        err: (l: string) => out.push(l),
      };
      const args = ['create', '--name', 'cli', '--models', 'gen-4.6,gen-4.5*', '--expires', '2099-12-31T00:00:00Z'];
      expect(await keysCommand(args, env)).toBe(0);
      const key = out.at(-1)!;
      expect(out[0]).toContain('models gen-4.6,gen-4.5*; expires 2099-12-31T00:00:00.000Z');
      expect(await use(key, 'gen-4.7')).toBe(1220);
      expect(await use(key, 'gen-4.5')).not.toBe(1220);
      const id = key.split('.')[0]!;
      expect(await keysCommand(['update', id, '--models', '', '--description', 'opened'], env)).toBe(0);
      expect(await use(key, 'gen-4.7')).not.toBe(1220);
      expect(await keysCommand(['roll', id, '--grace', '0'], env)).toBe(0);
      expect(await use(key, 'gen-4.7')).toBe(1002);
      expect(await use(out.at(-1)!, 'gen-4.7')).not.toBe(1220);
      await expect(keysCommand(['create', '--name', 'x', '--expires', 'soon'], env)).rejects.toThrow(/--expires/);
    });
  });
}
