import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keysCommand } from '../../../src/cli/keys.js';
import { loadConfig } from '../../../src/config/load.js';
import { closeServices, createServices } from '../../../src/services/create-services.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

const DEFAULTS = { concurrent: 3, requests_per_minute: 100, windows: [{ requests: 50, hours: 5 }] };

describe('a key’s own limits take the configured defaults for what they leave out', () => {
  it('keys create: a flag sets its own limit, the others are limits.*; --concurrent 0 is no limit', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cli-limits-'));
    try {
      writeFileSync(
        path.join(dir, 'gen-platform.yaml'),
        `log:\n  level: silent\nembedded:\n  default_model: ""\nlimits: ${JSON.stringify(DEFAULTS)}\n`,
      );
      const env = { cwd: dir, vars: { GEN_PLATFORM_DATA: dir }, out: () => {}, err: () => {} };
      expect(await keysCommand(['create', '--name', 'rpm', '--rpm', '60'], env)).toBe(0);
      expect(await keysCommand(['create', '--name', 'free', '--concurrent', '0'], env)).toBe(0);
      expect(await keysCommand(['create', '--name', 'plain'], env)).toBe(0);
      const services = await createServices(loadConfig({ cwd: dir, env: { GEN_PLATFORM_DATA: dir } }).config, {
        configDir: dir,
      });
      try {
        const byName = new Map((await services.keys.list()).map((k) => [k.name, k.limits]));
        expect(byName.get('rpm')).toEqual({ ...DEFAULTS, requests_per_minute: 60 });
        expect(byName.get('free')).toEqual({ ...DEFAULTS, concurrent: 0 });
        expect(byName.get('plain')).toBeUndefined();
      } finally {
        await closeServices(services);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('POST /admin/keys', () => {
    const ADMIN = 'configured-admin-key-0123456789';
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ limits: DEFAULTS, security: { admin_key: ADMIN } });
    });
    afterAll(() => t.close());
    const create = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/admin/keys',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });

    it('fills the limits left out from limits.*', async () => {
      const res = await create({ name: 'x', limits: { requests_per_minute: 7 } });
      expect(res.statusCode, res.body).toBe(200);
      const stored = await t.services.keys.get(res.json().id);
      expect(stored?.limits).toEqual({ ...DEFAULTS, requests_per_minute: 7 });
    });

    it('keeps what it is given, 0 (no limit) included, and refuses a bad value naming the field', async () => {
      const res = await create({ name: 'y', limits: { concurrent: 0, requests_per_minute: 0, windows: [] } });
      expect((await t.services.keys.get(res.json().id))?.limits).toEqual({
        concurrent: 0,
        requests_per_minute: 0,
        windows: [],
      });
      const bad = await create({ name: 'z', limits: { concurrent: -1 } });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('concurrent');
    });
  });
});
