import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { loadConfig } from '../../../src/config/load.js';

/** `engine: llama-server` in a configuration: start-up refuses it, saying what to do, until there is a binary. */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'managed-startup-'));
  await writeFile(
    join(dir, 'gen-platform.yaml'),
    [
      'embedded:',
      '  default_model: ""',
      'models:',
      '  gen-4.6:',
      '    deployments:',
      '      - engine: llama-server',
      '        model: ./m.gguf',
      '        parallel: 4',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const vars = () => ({ GEN_PLATFORM_DATA: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'cache'), LOG_LEVEL: 'error' });

describe('engine: llama-server at start-up', () => {
  it('the cache folder defaults under XDG_CACHE_HOME', () => {
    const { config } = loadConfig({ cwd: dir, env: vars() });
    expect(config.llama_server.cache_dir).toBe(join(dir, 'cache', 'gen-platform-llama'));
  });

  it("llama_server's paths are relative to the configuration file", async () => {
    const file = join(dir, 'sub', 'paths.yaml');
    await mkdir(join(dir, 'sub'), { recursive: true });
    await writeFile(file, 'llama_server:\n  binary: ./bin/llama-server\n  cache_dir: ../builds\n');
    const { config } = loadConfig({ file, cwd: '/', env: vars() });
    expect(config.llama_server).toEqual({
      binary: join(dir, 'sub', 'bin', 'llama-server'),
      cache_dir: join(dir, 'builds'),
    });
  });

  it('without a binary configured or built, serve exits 2 saying to build one or set its path', async () => {
    const err: string[] = [];
    const code = await runCli(['serve', '--port', '0'], {
      cwd: dir,
      vars: vars(),
      out: () => {},
      err: (line) => err.push(line),
    });
    expect(code).toBe(2);
    expect(err.join('\n')).toMatch(
      /engine: llama-server deployment of \.\/m\.gguf: no llama-server binary to run: run `npx gen-platform engines build`.*set `llama_server\.binary`/,
    );
  });
});
