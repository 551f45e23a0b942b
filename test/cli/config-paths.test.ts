import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../src/cli/run.js';
import { loadConfig } from '../../src/config/load.js';
import { packageRoot } from '../../src/util/package-root.js';
import { COMFY_INPUTS, FIXTURES } from '../engines/image/helpers.js';

/**
 * Paths in the configuration are the file's, wherever a command runs; key commands open the store
 * only, so they need none of the engines' files; `--version` says the package's version.
 */

let dir: string;
let elsewhere: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'config-paths-'));
  elsewhere = join(dir, 'elsewhere');
  mkdirSync(join(dir, 'conf'), { recursive: true });
  mkdirSync(elsewhere);
  copyFileSync(join(FIXTURES, 'sd-txt2img-api.json'), join(dir, 'conf', 'wf.json'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, {
    cwd: elsewhere,
    vars: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function writeConfig(name: string, workflow: string): string {
  const file = join(dir, 'conf', name);
  writeFileSync(
    file,
    stringify({
      data_dir: './data',
      embedded: { default_model: '', models_dir: './models' },
      files: { dir: './files' },
      models: {
        'gen-image': {
          deployments: [{ engine: 'comfyui', base_url: 'http://127.0.0.1:9', workflow, inputs: COMFY_INPUTS }],
        },
        'gen-4.6': { deployments: [{ engine: 'llama-cpp', model: './missing.gguf', threads: 1 }] },
      },
    }),
  );
  return file;
}

describe('configuration paths and key commands', () => {
  it('resolves data_dir, models_dir and files.dir against the config file, not the working directory', () => {
    const file = writeConfig('paths.yaml', './wf.json');
    const { config, configDir } = loadConfig({ file, cwd: elsewhere, env: {} });
    expect(configDir).toBe(join(dir, 'conf'));
    expect(config.data_dir).toBe(join(dir, 'conf', 'data'));
    expect(config.embedded.models_dir).toBe(join(dir, 'conf', 'models'));
    expect(config.files.dir).toBe(join(dir, 'conf', 'files'));
  });

  it('keys create with --config from another folder: a ComfyUI `workflow: ./wf.json` is the file’s, and engine files are not needed', async () => {
    const file = writeConfig('comfy.yaml', './wf.json');
    const created = await run('keys', 'create', '--name', 'ci', '--config', file);
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out.split('\n').at(-1)).toMatch(/^[0-9a-f]{32}\.[\w-]+$/);
    // The same with a workflow that does not exist and a model file that is missing: keys live in
    // the store, and a key command opens nothing of the engines.
    const broken = writeConfig('broken.yaml', './no-such-workflow.json');
    const listed = await run('keys', 'list', '--config', broken);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('ci');
    // Commands that do open the engines read the workflow next to the config file.
    const models = await run('models', 'list', '--config', file);
    expect(models.err).toBe('');
    expect(models.out).toContain('gen-4.6');
    const missing = await run('models', 'list', '--config', broken);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(join(dir, 'conf', 'no-such-workflow.json'));
    expect((await run('keys', 'revoke', created.out.split('\n').at(-1)!.split('.')[0]!, '--config', broken)).code).toBe(
      0,
    );
  });

  it('gen-platform --version prints the package version', async () => {
    for (const flag of ['--version', '-v']) {
      const { code, out } = await run(flag);
      expect(code).toBe(0);
      expect(out).toBe(`gen-platform ${packageRoot().version}`);
    }
  });
});
