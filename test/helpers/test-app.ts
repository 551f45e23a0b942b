import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { closeServices, createServices } from '../../src/services/create-services.js';
import type { PlatformServices } from '../../src/services/platform-services.js';
import type { Endpoint } from '../../src/stores/types.js';
import { openTracer } from '../../src/telemetry/open-tracer.js';
import { installReplyCheck } from './reply-check.js';

export interface TestApp {
  app: FastifyInstance;
  services: PlatformServices;
  config: Config;
  dataDir: string;
  /** A key for the general endpoint. */
  key: string;
  newKey(options?: { endpoints?: Endpoint[]; limits?: Config['limits'] }): Promise<string>;
  /** Replies and SSE chunks seen so far that break their route's reply schemas. */
  replyViolations: readonly string[];
  post(
    url: string,
    body: unknown,
    key?: string | null,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * An app on a fresh SQLite data dir, with a general-endpoint key. `configYaml`-like overrides are
 * given as an object merged into the file config.
 */
export async function createTestApp(
  overrides: Record<string, unknown> = {},
  env: Record<string, string> = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-test-'));
  const { writeFileSync } = await import('node:fs');
  const file = path.join(dataDir, 'config.json');
  // No default model: tests never download; those that chat configure the test models.
  writeFileSync(file, JSON.stringify({ log: { level: 'silent' }, embedded: { default_model: '' }, ...overrides }));
  const { config } = loadConfig({ file, cwd: dataDir, env: { GEN_PLATFORM_DATA: dataDir, ...env } });
  // As `serve` does: a tracer only when the config or the environment turns tracing on.
  const tracer = await openTracer(config.tracing, 'test');
  const services = await createServices(config, { configDir: dataDir, tracer });
  const app = await buildApp({ services });
  // Every reply and SSE chunk is checked against its route's reply schemas (reply-check.ts).
  const replyCheck = installReplyCheck(app);
  const newKey = async (options: { endpoints?: Endpoint[]; limits?: Config['limits'] } = {}) =>
    (await services.keys.create({ name: 'test', ...options })).key;
  const key = await newKey();
  const post: TestApp['post'] = async (url, body, k = key) => {
    const options: InjectOptions = {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...(k ? { authorization: `Bearer ${k}` } : {}) },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    };
    const res = await app.inject(options);
    return { status: res.statusCode, body: res.json() as Record<string, unknown>, headers: res.headers };
  };
  return {
    app,
    services,
    config,
    dataDir,
    key,
    newKey,
    post,
    replyViolations: replyCheck.violations,
    async close() {
      await app.close();
      await closeServices(services);
      await tracer?.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
      if (replyCheck.violations.length > 0) {
        throw new Error(`replies that break their schemas:\n${replyCheck.violations.join('\n')}`);
      }
    },
  };
}
