import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { closeServices, createServices } from '../../src/services/create-services.js';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const children: ChildProcess[] = [];

/**
 * The test's environment without the store and limiter URLs that CI exports: the server must use
 * the SQLite data dir the key was made in, as createKey does.
 */
function serverEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _db, REDIS_URL: _redis, ...rest } = process.env;
  return { ...rest, LOG_LEVEL: 'silent' };
}

/** A real server process (`gen-platform serve`) on this data dir; resolves with its base URL. */
function serve(dir: string, config: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), 'serve', '--port', '0', '--data', dir, '--config', config],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: serverEnv() },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    // The banner is on stderr (stdout is the log stream).
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /serving on (http:\/\/\S+?:\d+)/.exec(out);
      if (m) resolve({ child, base: m[1]! });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

async function createKey(dir: string, config: string): Promise<string> {
  const { config: c } = loadConfig({ file: config, cwd: dir, env: { GEN_PLATFORM_DATA: dir } });
  const services = await createServices(c, { configDir: dir });
  const { key } = await services.keys.create({ name: 'kill-test' });
  await closeServices(services);
  return key;
}

let replay: ReplayControl;
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await replay?.close();
});

describe('async image tasks survive kill -9 of the server process', () => {
  it('a task running when its process was killed ends after a restart', async () => {
    replay = await startOpenAIReplay();
    replay.delayMs = 60_000;
    const dir = mkdtempSync(path.join(tmpdir(), 'kill9-'));
    const config = path.join(dir, 'gen-platform.json');
    writeFileSync(
      config,
      JSON.stringify({
        log: { level: 'silent' },
        embedded: { default_model: '' },
        models: { 'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: replay.url, model: 'm' }] } },
        images: { lease_seconds: 3, poll_interval_ms: 200 },
      }),
    );
    const key = await createKey(dir, config);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };

    const first = await serve(dir, config);
    const res = await fetch(`${first.base}/paas/v4/async/images/generations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'gen-image', prompt: 'a slow fox' }),
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    // Generous: on a loaded two-core CI machine a fresh process can take seconds to claim its first task.
    await expect.poll(() => replay.jobs.length, { timeout: 45_000 }).toBe(1);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    replay.delayMs = 0;

    const second = await serve(dir, config);
    let body: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) {
      const r = await fetch(`${second.base}/paas/v4/async-result/${id}`, { headers });
      body = (await r.json()) as Record<string, unknown>;
      if (body['task_status'] !== 'PROCESSING') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(body).toMatchObject({
      id,
      task_status: 'SUCCESS',
      image_result: [{ url: expect.stringContaining('/files/') }],
    });
    // The job ran again on the engine after the restart: a second request reached it.
    expect(replay.jobs.length).toBe(2);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);
});
