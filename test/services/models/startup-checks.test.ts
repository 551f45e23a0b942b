import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../src/app/app.js';
import { loadConfig } from '../../../src/config/load.js';
import { createServices } from '../../../src/services/create-services.js';
import type { PlatformServices } from '../../../src/services/platform-services.js';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';

/** Start-up checks of local model files: reported by name and path, and the rest still serves. */

let dir: string;
let services: PlatformServices;
const warnings: { details: Record<string, unknown>; message: string }[] = [];

const deployment = (model: string) => ({
  deployments: [{ engine: 'llama-cpp', model, threads: 1, context_size: 512 }],
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'startup-checks-'));
  const paths = await writeTestModels(join(dir, 'models'));
  await writeFile(join(dir, 'models', 'notes.gguf'), 'these are notes, not a model');
  const file = join(dir, 'config.json');
  await writeFile(
    file,
    JSON.stringify({
      log: { level: 'silent' },
      embedded: { default_model: '' },
      models: {
        'gen-4.6': deployment('models/missing.gguf'),
        'gen-4.5': deployment('models/notes.gguf'),
        'gen-5': deployment(paths.programmed),
      },
    }),
  );
  const { config } = loadConfig({ file, cwd: dir, env: { GEN_PLATFORM_DATA: join(dir, 'data') } });
  const log = {
    info() {},
    error() {},
    warn: (details: Record<string, unknown>, message: string) => warnings.push({ details, message }),
  };
  services = await createServices(config, { configDir: dir, log });
  await services.engines!.warmUp({ download: true });
});
afterAll(async () => {
  await services?.close();
  await rm(dir, { recursive: true, force: true });
});

it('warns about a missing file and a file that is not a GGUF, naming the model code and the path', () => {
  expect(warnings).toHaveLength(2);
  const missing = warnings.find((w) => w.message.includes('gen-4.6'));
  expect(missing?.message).toContain(join(dir, 'models', 'missing.gguf'));
  expect(missing?.message).toContain('does not exist');
  const notGguf = warnings.find((w) => w.message.includes('gen-4.5'));
  expect(notGguf?.message).toContain(join(dir, 'models', 'notes.gguf'));
  expect(notGguf?.message).toContain('not a readable GGUF');
});

it('starts the rest: the valid model serves, the broken ones are listed as failed', async () => {
  const app = await buildApp({ services });
  try {
    const { key } = await services.keys.create({ name: 't' });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    expect((await app.inject({ method: 'GET', url: '/health' })).json()).toMatchObject({ status: 'ok' });
    const list = (await app.inject({ method: 'GET', url: '/paas/v4/models', headers })).json() as {
      data: { id: string; state: string; error?: string }[];
    };
    const byId = new Map(list.data.map((m) => [m.id, m]));
    expect(byId.get('gen-4.6')?.state).toBe('failed');
    // Key holders learn that the model is broken; the path and the cause are in the log only.
    expect(byId.get('gen-4.6')?.error).toContain('not a usable model');
    expect(byId.get('gen-4.6')?.error).not.toContain('missing.gguf');
    expect(byId.get('gen-4.5')?.state).toBe('failed');
    expect(byId.get('gen-5')?.state).toBe('not_loaded');
    const body = { model: 'gen-5', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 };
    const ok = await app.inject({ method: 'POST', url: '/paas/v4/chat/completions', headers, payload: body });
    expect(ok.statusCode, ok.payload).toBe(200);
    const broken = await app.inject({
      method: 'POST',
      url: '/paas/v4/chat/completions',
      headers,
      payload: { ...body, model: 'gen-4.6' },
    });
    expect(broken.json()).toMatchObject({ code: 1234 });
    expect(broken.payload).toContain('could not be opened');
    expect(broken.payload).not.toContain('missing.gguf');
    expect(broken.payload).not.toContain(dir);
  } finally {
    await app.close();
  }
});
