import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../src/test-models/write-test-models.js';
import { ensureBuilt, type ServerProcess, startServer } from '../helpers/server-process.js';

const MAIN = path.resolve(import.meta.dirname, '../../dist/src/main.js');

/**
 * With tracing off (the default) the server loads nothing of OpenTelemetry, and with JSON logs
 * nothing of pino-pretty: a resolve hook in the server's process refuses both, and the server
 * still starts and answers a chat call.
 */
const REFUSE = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  if (/^@opentelemetry\\\\/|^pino-pretty/.test(specifier)) throw new Error('loaded while off: ' + specifier);
  return next(specifier, context);
}\`));
`)}`;

describe('tracing off costs nothing', { timeout: 120_000 }, () => {
  let dir: string;
  let server: ServerProcess | undefined;
  let config: (extra: Record<string, unknown>) => string;
  beforeAll(async () => {
    ensureBuilt();
    dir = await mkdtemp(path.join(tmpdir(), 'tracing-off-'));
    const models = await writeTestModels(dir);
    config = (extra) => {
      const file = path.join(dir, `config-${Object.keys(extra).length}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          embedded: { default_model: '' },
          metrics: { enabled: true },
          models: { 'gen-4.6': { deployments: [{ engine: 'llama-cpp', model: models.programmed, threads: 1 }] } },
          security: { admin_key: 'tracing-off-admin-key-0123456789' },
          ...extra,
        }),
      );
      return file;
    };
    server = await startServer(config({}), dir, ['--import', REFUSE]);
  }, 180_000);
  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('starts and serves a chat completion without loading @opentelemetry/* or pino-pretty', async () => {
    // The server's own environment (server-process.ts): no DATABASE_URL of the test run's.
    const env = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? dir };
    const argv = [MAIN, 'keys', 'create', '--name', 'off', '--config', config({}), '--data', dir];
    const out = execFileSync(process.execPath, argv, { env });
    const key = out.toString().trim().split('\n').at(-1)!;
    const res = await fetch(`${server!.base}/paas/v4/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(server!.output()).not.toContain('loaded while off');
  });

  it('(the hook works: with tracing on, the same server cannot start)', async () => {
    const on = config({ tracing: { endpoint: 'http://127.0.0.1:9' } });
    await expect(startServer(on, dir, ['--import', REFUSE])).rejects.toThrow(/loaded while off: @opentelemetry/);
  });
});
