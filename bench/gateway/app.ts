/**
 * Our whole server as the benchmarks run it: `buildApp` with the services of a config in a fresh
 * temporary data dir (SQLite store), listening on 127.0.0.1, with one general-endpoint key — the
 * same set-up as test/helpers/test-app.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config/load.js';
import { closeServices, createServices } from '../../src/services/create-services.js';
import type { PlatformServices } from '../../src/services/platform-services.js';

export interface BenchApp {
  app: FastifyInstance;
  services: PlatformServices;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  key: string;
  close(): Promise<void>;
}

export async function startBenchApp(
  models: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gen-platform-bench-'));
  try {
    const file = path.join(dataDir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({ log: { level: 'silent' }, embedded: { default_model: '' }, models, ...extra }),
    );
    const { config } = loadConfig({ file, cwd: dataDir, env: { GEN_PLATFORM_DATA: dataDir } });
    const services = await createServices(config, { configDir: dataDir });
    const app = await buildApp({ services });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const { key } = await services.keys.create({ name: 'bench' });
    return {
      app,
      services,
      origin,
      key,
      async close() {
        await app.close();
        await closeServices(services);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
