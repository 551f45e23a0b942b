import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleDir } from '../../../src/routes/console/static.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

describe('the console page and its assets', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!consoleDir()) {
      const { build } = await import('vite');
      await build({ configFile: 'web/console/vite.config.ts' });
    }
    t = await createTestApp();
  }, 60_000);
  afterAll(() => t.close());

  it('serves the page at /console with a strict CSP, and its hashed assets for a year', async () => {
    for (const url of ['/console', '/console/']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.body).not.toMatch(/https?:\/\//);
    }
    const page = await t.app.inject({ method: 'GET', url: '/console' });
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
    expect(script).toBeDefined();
    const asset = await t.app.inject({ method: 'GET', url: script! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toContain('immutable');
    // Bundled: the page loads nothing from elsewhere (no CDN), so it works offline.
    expect(asset.body).not.toMatch(/<script[^>]+src="https?:/);
  });

  it('answers unknown or unsafe asset names with 1222, never a file outside the build', async () => {
    for (const url of [
      '/console/assets/nope.js',
      '/console/assets/..%2f..%2fpackage.json',
      '/console/assets/.hidden.js',
      '/console/assets/x.exe',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ error: { code: '1222' } });
    }
  });

  it('console.enabled: false serves neither the page nor its API', async () => {
    const off = await createTestApp({ console: { enabled: false } });
    try {
      expect((await off.app.inject({ method: 'GET', url: '/console' })).statusCode).toBe(404);
      expect((await off.app.inject({ method: 'GET', url: '/console/api/session' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('refuses a bad console configuration at start-up, naming the key', async () => {
    await expect(createTestApp({ console: { session_hours: 0 } })).rejects.toThrow(/console\.session_hours/);
    await expect(createTestApp({ console: { sign_in_attempts: 0 } })).rejects.toThrow(/console\.sign_in_attempts/);
  });
});
