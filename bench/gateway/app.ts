/**
 * Our whole server as the benchmarks run it: `buildApp` with the services of a config in a fresh
 * temporary data dir (SQLite store), listening on 127.0.0.1, with one general-endpoint key — the
 * same set-up as test/helpers/test-app.ts.
 *
 * The server is the compiled `dist/` that `npm start` runs, not `src/` through tsx: tsx's esbuild
 * keeps function names with a `defineProperty` per closure made and turns source maps on, costs
 * that production does not pay and that showed in the gateway's CPU per request. `npm run bench`
 * compiles `dist/` first (bench/run.ts); a module run on its own uses the `dist/` that is there.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type * as AppModule from '../../src/app/app.js';
import type * as LoadModule from '../../src/config/load.js';
import type * as HeapTuningModule from '../../src/server/heap-tuning.js';
import type * as ServicesModule from '../../src/services/create-services.js';
import type { PlatformServices } from '../../src/services/platform-services.js';

const dist = (module: string) => new URL(`../../dist/src/${module}`, import.meta.url).href;
const { buildApp } = (await import(dist('app/app.js'))) as typeof AppModule;
const { loadConfig } = (await import(dist('config/load.js'))) as typeof LoadModule;
const { closeServices, createServices } = (await import(dist('services/create-services.js'))) as typeof ServicesModule;
const { tuneHeapForServing } = (await import(dist('server/heap-tuning.js'))) as typeof HeapTuningModule;
// The V8 settings `serve` applies before it builds anything.
tuneHeapForServing();

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
    // The benchmarks load one key far past the shipped per-key default (limits.concurrent).
    const { key } = await services.keys.create({
      name: 'bench',
      limits: { concurrent: 0, requests_per_minute: 0, windows: [] },
    });
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
