import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config/load.js';
import { createServices } from '../../src/services/create-services.js';

/** An app whose pino logger writes JSON lines into an array. */
async function loggedApp(requests: boolean) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-log-'));
  const file = path.join(dataDir, 'config.json');
  writeFileSync(file, JSON.stringify({ embedded: { default_model: '' }, log: { requests } }));
  const { config } = loadConfig({ file, cwd: dataDir, env: { GEN_PLATFORM_DATA: dataDir } });
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: config.log.level }, sink);
  const services = await createServices(config, { configDir: dataDir });
  const app = await buildApp({ services, logger });
  const key = (await services.keys.create({ name: 'log' })).key;
  return {
    app,
    key,
    lines,
    async close() {
      await app.close();
      await services.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const tokenizer = { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] };

describe('per-request log line (log.requests)', () => {
  it('on: one JSON line per request with the request id, operation, status, API code, key and time', async () => {
    const t = await loggedApp(true);
    try {
      await t.app.inject({ method: 'GET', url: '/health' });
      const refused = await t.app.inject({ method: 'POST', url: '/paas/v4/tokenizer', payload: tokenizer });
      await new Promise((r) => setTimeout(r, 20));
      const requests = t.lines.filter((l) => l['msg'] === 'request');
      expect(requests).toHaveLength(2);
      expect(requests[0]).toMatchObject({ operation: '/health', status: 200 });
      expect(requests[0]!['reqId']).not.toBe(requests[1]!['reqId']);
      expect(requests[1]).toMatchObject({ operation: 'tokenizer', status: 401, code: 1001, method: 'POST' });
      expect(typeof requests[1]!['reqId']).toBe('string');
      expect(typeof requests[1]!['ms']).toBe('number');
      expect(refused.statusCode).toBe(401);
      // Fastify's own two lines per request are off either way.
      expect(t.lines.filter((l) => l['msg'] === 'incoming request')).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('off (the default): no line per request', async () => {
    const t = await loggedApp(false);
    try {
      await t.app.inject({ method: 'GET', url: '/health' });
      await t.app.inject({ method: 'POST', url: '/paas/v4/tokenizer', payload: tokenizer });
      await new Promise((r) => setTimeout(r, 20));
      expect(t.lines.filter((l) => l['msg'] === 'request' || l['msg'] === 'incoming request')).toHaveLength(0);
      expect(t.app.platformMetrics).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
