import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePath } from '../../src/routes/files.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

describe('GET /files/{id}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the bytes without a key, with their type and long-lived cache headers', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    const file = await t.services.files.put(png, { contentType: 'image/png' });
    const res = await t.app.inject({ method: 'GET', url: filePath(file) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(png)).toBe(true);
    const maxAge = Number(/max-age=(\d+)/.exec(String(res.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThan(29 * 24 * 3600);
    expect(res.headers['cache-control']).toContain('immutable');
    // Only the client's own cache: a shared cache would serve the bytes to anyone after expiry checks.
    expect(res.headers['cache-control']).toMatch(/^private,/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // The bare id works as well as the id with its extension.
    expect((await t.app.inject({ method: 'GET', url: `/files/${file.id}` })).statusCode).toBe(200);
  });

  it('gives text its charset', async () => {
    const file = await t.services.files.put(Buffer.from('译文'), { contentType: 'text/plain' });
    const res = await t.app.inject({ method: 'GET', url: filePath(file) });
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.body).toBe('译文');
  });

  it('answers 404 in the error body for unknown, expired and path-like names', async () => {
    const expired = await t.services.files.put(Buffer.from('x'), { contentType: 'text/plain', ttlMs: -1 });
    for (const url of ['/files/AAAAAAAAAAAAAAAAAAAAAAAAAAAA.png', filePath(expired), '/files/..%2F..%2Fserver.key']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 1222 });
    }
  });
});
