import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/run.js';
import { resolveBinary } from '../../../src/engines/chat/llama-server/binary.js';
import {
  BuildError,
  type BuildProgress,
  buildLlamaServer,
  compilePercent,
  type StepRunner,
} from '../../../src/engines/chat/llama-server/build.js';
import { buildLayout, bundleCommit, bundledSource } from '../../../src/engines/chat/llama-server/llama-source.js';

/**
 * `engines build`'s cache: where the binary goes, that a second run runs nothing, what a missing tool
 * or compiler says. The build's programs are faked: no cmake runs here.
 */

const COMMIT = '0123456789abcdef0123456789abcdef01234567';
let dir: string;
let bundle: string;
let tools: string;

async function executable(file: string, text = '#!/bin/sh\n'): Promise<void> {
  await writeFile(file, text);
  await chmod(file, 0o755);
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engines-build-'));
  bundle = join(dir, 'gitRelease.bundle');
  await writeFile(bundle, `# v2 git bundle\n${COMMIT} HEAD\n\nPACK\u0000\u0000\u0000\u0002`);
  tools = join(dir, 'tools');
  await mkdir(tools);
  for (const name of ['git', 'cmake', 'c++']) await executable(join(tools, name));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records each step; the compile step writes the binary, as the real one does. */
function fakeRunner(options: { configureOutput?: string; configureFails?: boolean } = {}) {
  const calls: string[][] = [];
  const run: StepRunner = async (command, args, o) => {
    calls.push([command, ...args]);
    if (command === 'cmake' && args[0] === '-S') {
      if (options.configureOutput) o.onLine(options.configureOutput);
      if (options.configureFails) throw new Error('cmake exited with code 1');
    }
    if (command === 'cmake' && args[0] === '--build') {
      o.onLine('[ 10%] Building C object ggml/src/CMakeFiles/ggml-base.dir/ggml.c.o');
      o.onLine('[100%] Linking CXX executable ../../bin/llama-server');
      const bin = join(args[1]!, 'bin');
      await mkdir(bin, { recursive: true });
      await executable(join(bin, 'llama-server'));
    }
  };
  return { run, calls };
}

const cacheDir = () => join(dir, 'cache');

describe('engines build', () => {
  it('clones, configures and builds into <cache>/<commit12>/, the layout scripts/llama-server.sh uses', async () => {
    const { run, calls } = fakeRunner();
    const progress: BuildProgress[] = [];
    const result = await buildLlamaServer({
      cacheDir: cacheDir(),
      env: { PATH: tools },
      bundle,
      run,
      jobs: 2,
      onProgress: (p) => progress.push(p),
    });
    const layout = buildLayout(cacheDir(), COMMIT);
    expect(layout.dir).toBe(join(cacheDir(), '0123456789ab'));
    expect(result).toEqual({ binary: join(layout.dir, 'build', 'bin', 'llama-server'), cached: false, layout });
    expect(calls.map((c) => c.slice(0, 2))).toEqual([
      ['git', 'clone'],
      ['cmake', '-S'],
      ['cmake', '--build'],
    ]);
    expect(calls[0]).toEqual(['git', 'clone', '-q', bundle, layout.src]);
    expect(calls[1]).toEqual(
      expect.arrayContaining(['-B', layout.build, '-DLLAMA_BUILD_SERVER=ON', '-DCMAKE_BUILD_TYPE=Release']),
    );
    expect(calls[2]).toEqual(['cmake', '--build', layout.build, '--target', 'llama-server', '-j', '2']);
    expect(progress.map((p) => (p.step === 'compile' ? p.percent : p.step))).toEqual([
      'clone',
      'configure',
      10,
      100,
      'done',
    ]);
    expect(await readFile(layout.log, 'utf8')).toContain('[100%] Linking CXX executable');
  });

  it('runs nothing the second time: the binary is there', async () => {
    await buildLlamaServer({ cacheDir: cacheDir(), env: { PATH: tools }, bundle, run: fakeRunner().run });
    const second = fakeRunner();
    const result = await buildLlamaServer({ cacheDir: cacheDir(), env: { PATH: '' }, bundle, run: second.run });
    expect(result.cached).toBe(true);
    expect(second.calls).toEqual([]);
  });

  it('says which tool is missing before running anything', async () => {
    await rm(join(tools, 'cmake'));
    const { run, calls } = fakeRunner();
    await expect(buildLlamaServer({ cacheDir: cacheDir(), env: { PATH: tools }, bundle, run })).rejects.toThrow(
      /needs cmake 3\.14 or later/,
    );
    await rm(join(tools, 'c++'));
    await expect(buildLlamaServer({ cacheDir: cacheDir(), env: { PATH: tools }, bundle, run })).rejects.toThrow(
      /a C\/C\+\+ compiler/,
    );
    expect(calls).toEqual([]);
  });

  it('names a compiler that cmake cannot find', async () => {
    const { run } = fakeRunner({
      configureOutput: 'CMake Error: No CMAKE_CXX_COMPILER could be found.',
      configureFails: true,
    });
    const failed = buildLlamaServer({ cacheDir: cacheDir(), env: { PATH: tools }, bundle, run });
    await expect(failed).rejects.toBeInstanceOf(BuildError);
    await expect(failed).rejects.toThrow(/cmake found no C\/C\+\+ compiler: install one/);
  });

  it('refuses to build where another build is running, and takes over a dead one’s lock', async () => {
    const layout = buildLayout(cacheDir(), COMMIT);
    await mkdir(layout.dir, { recursive: true });
    await writeFile(join(layout.dir, '.build-lock'), String(process.pid));
    await expect(
      buildLlamaServer({ cacheDir: cacheDir(), env: { PATH: tools }, bundle, run: fakeRunner().run }),
    ).rejects.toThrow(/another build .* is running/);
    const dead = spawnSync('true').pid!;
    await writeFile(join(layout.dir, '.build-lock'), String(dead));
    const result = await buildLlamaServer({
      cacheDir: cacheDir(),
      env: { PATH: tools },
      bundle,
      run: fakeRunner().run,
    });
    expect(result.cached).toBe(false);
  });

  it("reads CMake's progress lines", () => {
    expect(compilePercent('[ 45%] Building CXX object src/llama.cpp.o')).toBe(45);
    expect(compilePercent('-- Configuring done')).toBeUndefined();
  });

  it('reads the commit of the bundled source as git does', async () => {
    expect(await bundleCommit(bundle)).toBe(COMMIT);
    const heads = spawnSync('git', ['bundle', 'list-heads', bundledSource()], { encoding: 'utf8' });
    if (heads.status === 0) expect(await bundleCommit(bundledSource())).toBe(heads.stdout.slice(0, 40));
  });
});

describe('the binary a deployment runs', () => {
  it('is the configured one, else the cached build; without either, says to build or configure one', async () => {
    const mine = join(dir, 'my-llama-server');
    await executable(mine);
    expect(await resolveBinary(mine, undefined, 'd')).toBe(mine);
    expect(await resolveBinary(undefined, { binary: mine }, 'd')).toBe(mine);
    await expect(resolveBinary(join(dir, 'nothing'), undefined, 'd')).rejects.toThrow(/is not an executable file/);
    await expect(resolveBinary(undefined, { cacheDir: cacheDir() }, 'd')).rejects.toThrow(
      /no llama-server binary to run: run `npx gen-platform engines build`.*or set `llama_server.binary`/,
    );
    // The cache holds builds of the bundled llama.cpp, under its commit.
    const { binary } = buildLayout(cacheDir(), await bundleCommit(bundledSource()));
    await mkdir(join(binary, '..'), { recursive: true });
    await executable(binary);
    expect(await resolveBinary(undefined, { cacheDir: cacheDir() }, 'd')).toBe(binary);
  });
});

describe('gen-platform engines', () => {
  const run = async (vars: Record<string, string>, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      cwd: dir,
      vars: { GEN_PLATFORM_DATA: join(dir, 'data'), XDG_CACHE_HOME: join(dir, 'xdg'), ...vars },
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('build prints the cached binary at once', async () => {
    const { binary } = buildLayout(join(dir, 'xdg', 'gen-platform-llama'), await bundleCommit(bundledSource()));
    await mkdir(join(binary, '..'), { recursive: true });
    await executable(binary);
    const { code, out, err } = await run({ PATH: '' }, 'engines', 'build');
    expect(code).toBe(0);
    expect(out.split('\n').at(-1)).toBe(binary);
    expect(err).toContain('already built');
  });

  it('build says what is missing and exits 1; an unknown action is a usage error', async () => {
    const missing = await run({ PATH: join(dir, 'empty') }, 'engines', 'build');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/building llama-server needs git .*cmake/);
    const unknown = await run({}, 'engines', 'rebuild');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown engines action "rebuild"');
  });
});
