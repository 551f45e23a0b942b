import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { processAlive } from '../../../util/process-alive.js';
import { buildLayout, bundleCommit, bundledSource, executable, type LlamaBuildLayout } from './llama-source.js';

/**
 * Builds llama-server from the llama.cpp source node-llama-cpp ships, once per llama.cpp commit,
 * into `<cache>/<commit12>/` (llama-source.ts): the same steps and CMake flags as the repository's
 * scripts/llama-server.sh, which is not part of the package. A second call finds the binary there.
 */

/** A build that cannot run or failed, with what to do about it. */
export class BuildError extends Error {
  override name = 'BuildError';
}

/** One step of the build: a program run to its end, its output lines handed over as they come. */
export type StepRunner = (
  command: string,
  args: string[],
  options: { cwd?: string; env: Readonly<Record<string, string | undefined>>; onLine(line: string): void },
) => Promise<void>;

export type BuildProgress =
  | { step: 'clone' | 'configure' }
  | { step: 'compile'; percent: number; detail: string }
  | { step: 'done' };

export interface BuildOptions {
  cacheDir: string;
  env: Readonly<Record<string, string | undefined>>;
  onProgress?: (progress: BuildProgress) => void;
  /** The bundled source; default node-llama-cpp's. */
  bundle?: string;
  /** Runs the programs; default spawns them (tests pass a fake). */
  run?: StepRunner;
  /** Parallel compile jobs; default one per CPU. */
  jobs?: number;
}

export interface BuildResult {
  binary: string;
  /** True when it was there already and nothing ran. */
  cached: boolean;
  layout: LlamaBuildLayout;
}

const CMAKE_FLAGS = [
  '-DLLAMA_BUILD_SERVER=ON',
  '-DLLAMA_BUILD_TESTS=OFF',
  '-DLLAMA_BUILD_EXAMPLES=OFF',
  '-DLLAMA_OPENSSL=OFF',
  '-DCMAKE_BUILD_TYPE=Release',
];

const COMPILERS = ['c++', 'g++', 'clang++'];

/** Whether `name` is a program on the PATH of `env`. */
export function onPath(name: string, env: BuildOptions['env']): boolean {
  return (env['PATH'] ?? '').split(path.delimiter).some((dir) => dir !== '' && executable(path.join(dir, name)));
}

/** What is missing to build, in words that say how to get it; empty when nothing is. */
export function missingTools(env: BuildOptions['env']): string[] {
  const missing: string[] = [];
  if (!onPath('git', env)) missing.push('git (to unpack the llama.cpp source)');
  if (!onPath('cmake', env)) missing.push('cmake 3.14 or later (e.g. `apt install cmake`, `brew install cmake`)');
  const cxx = env['CXX'];
  if (!(cxx ? executable(cxx) || onPath(cxx, env) : COMPILERS.some((c) => onPath(c, env))))
    missing.push('a C/C++ compiler (e.g. `apt install build-essential`, Xcode command line tools)');
  return missing;
}

/** The compile's share from CMake's `[ 45%] Building ...` lines. */
export function compilePercent(line: string): number | undefined {
  const match = /^\[\s*(\d{1,3})%\]/.exec(line);
  return match ? Number(match[1]) : undefined;
}

export const spawnStep: StepRunner = (command, args, options) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let rest = '';
    const lines = (chunk: Buffer) => {
      const text = rest + chunk.toString('utf8');
      const parts = text.split('\n');
      rest = parts.pop() ?? '';
      for (const line of parts) options.onLine(line);
    };
    child.stdout.on('data', lines);
    child.stderr.on('data', lines);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (rest !== '') options.onLine(rest);
      if (code === 0) resolve();
      else reject(new Error(`${command} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`));
    });
  });

/** A lock of this cache entry, so that two builds never write one folder; a dead holder's lock is taken over. */
async function lock(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, '.build-lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder))
        throw new BuildError(`another build of ${dir} is running (pid ${holder}); wait for it to finish`);
      await rm(file, { force: true });
    }
  }
  throw new BuildError(`cannot take the build lock ${file}`);
}

const COMPILER_NOT_FOUND = /No CMAKE_(C|CXX)_COMPILER could be found|CMAKE_(C|CXX)_COMPILER not set/;

export async function buildLlamaServer(o: BuildOptions): Promise<BuildResult> {
  const bundle = o.bundle ?? bundledSource();
  if (!existsSync(bundle))
    throw new BuildError(`the llama.cpp source node-llama-cpp ships is missing (${bundle}): reinstall node-llama-cpp`);
  const layout = buildLayout(o.cacheDir, await bundleCommit(bundle));
  if (executable(layout.binary)) return { binary: layout.binary, cached: true, layout };
  const missing = missingTools(o.env);
  if (missing.length > 0) throw new BuildError(`building llama-server needs ${missing.join(', ')}`);
  await mkdir(layout.dir, { recursive: true });
  const unlock = await lock(layout.dir);
  const log = createWriteStream(layout.log, { flags: 'w' });
  const run = o.run ?? spawnStep;
  const step = async (command: string, args: string[], onLine?: (line: string) => void) => {
    log.write(`$ ${command} ${args.join(' ')}\n`);
    await run(command, args, {
      env: o.env,
      onLine: (line) => {
        log.write(`${line}\n`);
        onLine?.(line);
      },
    });
  };
  try {
    o.onProgress?.({ step: 'clone' });
    await rm(layout.src, { recursive: true, force: true });
    await step('git', ['clone', '-q', bundle, layout.src]);
    o.onProgress?.({ step: 'configure' });
    try {
      await step('cmake', ['-S', layout.src, '-B', layout.build, ...CMAKE_FLAGS]);
    } catch (err) {
      await new Promise((resolve) => log.end(resolve));
      const text = await readFile(layout.log, 'utf8').catch(() => '');
      if (COMPILER_NOT_FOUND.test(text))
        throw new BuildError(
          `cmake found no C/C++ compiler: install one (e.g. \`apt install build-essential\`, Xcode command line tools) and run again; the log is ${layout.log}`,
        );
      throw new BuildError(`cmake could not configure the build (${(err as Error).message}); the log is ${layout.log}`);
    }
    const jobs = String(o.jobs ?? availableParallelism());
    await step('cmake', ['--build', layout.build, '--target', 'llama-server', '-j', jobs], (line) => {
      const percent = compilePercent(line);
      if (percent !== undefined)
        o.onProgress?.({ step: 'compile', percent, detail: line.slice(line.indexOf(']') + 1).trim() });
    }).catch((err: Error) => {
      throw new BuildError(`the build failed (${err.message}); the log is ${layout.log}`);
    });
    if (!executable(layout.binary))
      throw new BuildError(`the build ended without ${layout.binary}; the log is ${layout.log}`);
    o.onProgress?.({ step: 'done' });
    return { binary: layout.binary, cached: false, layout };
  } finally {
    if (!log.writableEnded) await new Promise((resolve) => log.end(resolve));
    await unlock();
  }
}
