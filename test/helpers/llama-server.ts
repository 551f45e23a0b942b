import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where `scripts/llama-server.sh` caches the llama-server binary built from the llama.cpp source
 * that node-llama-cpp ships (one build per llama.cpp commit, outside the clone). `LLAMA_SERVER`
 * names another binary. Returns the path, or why there is none (the suite skips with that reason).
 */
export function findLlamaServer(): { path: string } | { reason: string } {
  const named = process.env['LLAMA_SERVER'];
  if (named) return executable(named) ? { path: named } : { reason: `LLAMA_SERVER=${named} is not executable` };
  const bundle = 'node_modules/node-llama-cpp/llama/gitRelease.bundle';
  const heads = spawnSync('git', ['bundle', 'list-heads', bundle], { encoding: 'utf8' });
  const commit = heads.status === 0 ? heads.stdout.slice(0, 12) : '';
  if (!/^[0-9a-f]{12}$/.test(commit)) return { reason: `cannot read the llama.cpp commit of ${bundle}` };
  const cache = process.env['XDG_CACHE_HOME'] || join(homedir(), '.cache');
  const path = join(cache, 'gen-platform-llama', commit, 'build', 'bin', 'llama-server');
  if (executable(path)) return { path };
  return { reason: `no llama-server built for llama.cpp ${commit}: run scripts/llama-server.sh (about 15 min, once)` };
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // Not there, or not executable: the caller says which.
    return false;
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface RunningLlamaServer {
  url: string;
  pid: number;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts llama-server on a GGUF (one thread, `--jinja`), and waits until `/health` answers, at most
 * `startupMs` (a model of hundreds of MB on a loaded machine takes longer than a test model).
 * `env` is added to the child's environment.
 */
export async function startLlamaServer(
  binary: string,
  model: string,
  extra: string[] = ['-c', '2048', '-np', '2'],
  { startupMs = 30_000, env = {} }: { startupMs?: number; env?: Record<string, string> } = {},
): Promise<RunningLlamaServer> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    ['-m', model, '--host', '127.0.0.1', '--port', String(port), '--jinja', '-t', '1', ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startupMs;
  for (;;) {
    // A signal (SIGILL from an instruction the CPU refuses) leaves exitCode null.
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`llama-server exited (${child.exitCode ?? child.signalCode}): ${log.slice(-2_000)}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`llama-server did not come up: ${log.slice(-2_000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid ?? 0,
    log: () => log,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
