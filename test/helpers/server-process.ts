import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAIN = path.join(ROOT, 'dist/src/main.js');

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is missing or older than src/: the processes run what `npx gen-platform` runs. */
export function ensureBuilt(): void {
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestIn(path.join(ROOT, 'src'))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Everything it printed, for failure messages. */
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/**
 * `gen-platform serve` in a process of its own on a free port (port 0, read back from its banner);
 * refused when it does not serve within `startMs` (more on a loaded machine).
 */
export async function startServer(
  configFile: string,
  dataDir: string,
  nodeArgs: string[] = [],
  startMs = 45_000,
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--config', configFile, '--data', dataDir],
    {
      cwd: dataDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? dataDir },
    },
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr!.on('data', (c: Buffer) => {
    out += c.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), startMs);
    const look = () => {
      const m = /serving on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stderr!.off('data', look);
      resolve(m[1]!);
    };
    // The banner is on stderr (stdout is the log stream).
    child.stderr!.on('data', look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before serving:\n${out}`));
    });
  });
  return { base, child, exited, output: () => out };
}

/**
 * A loopback round-robin proxy in front of several servers, as a load balancer would be: each
 * request goes to the next backend in turn.
 */
export async function startRoundRobin(backends: () => string[]): Promise<{ base: string; close(): Promise<void> }> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const list = backends();
    const target = new URL(list[next++ % list.length]!);
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end();
      else res.destroy();
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  // A test's fetch reuses its idle connections to the proxy; one closed by the proxy's keep-alive
  // timeout just as it is reused would reset a request (ECONNRESET) that no server saw.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
