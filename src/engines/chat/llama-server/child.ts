import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { createUpstreamFetcher, type Fetcher, type OutboundRequest } from '../../../net/fetcher.js';
import { RequestCancel } from '../../../util/cancel-signal.js';
import { guardChild } from './orphan-guard.js';

/** How a child ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export const describeExit = (e: ChildExit): string =>
  e.signal !== null ? `was killed by ${e.signal}` : `exited with code ${e.code}`;

/** A loopback port free right now (the child binds it a moment later; a lost race is a failed start). */
export async function freeLoopbackPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}

const LOG_TAIL_CHARS = 8_000;
/** `/props` carries the GGUF's chat template, which can be large; nothing we read comes near this. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;

/** One llama-server process: started, polled until it serves, stopped. */
export class ChildRun {
  readonly url: string;
  readonly exited: Promise<ChildExit>;
  private exit: ChildExit | undefined;
  private log = '';
  private readonly child: ChildProcess;
  /** The run's own calls (health, props, tokenize), through the upstream fetcher like any configured endpoint. */
  private readonly http: Fetcher = createUpstreamFetcher({ connectTimeoutMs: 2_000 });

  constructor(binary: string, args: string[], port: number) {
    this.url = `http://127.0.0.1:${port}`;
    // A process group of its own: a Ctrl-C meant for this process does not reach the child, whose
    // end is this process's to decide (stop(), or the orphan guard).
    this.child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.child.unref();
    const release = guardChild(this.child);
    const keep = (chunk: Buffer) => {
      this.log = (this.log + chunk.toString('utf8')).slice(-LOG_TAIL_CHARS);
    };
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream?.on('data', keep);
      (stream as unknown as Socket | null)?.unref();
    }
    this.exited = new Promise((resolve) => {
      const done = (exit: ChildExit) => {
        if (this.exit) return;
        this.exit = exit;
        release();
        void this.http.destroy().catch(() => {});
        resolve(exit);
      };
      this.child.once('exit', (code, signal) => done({ code, signal }));
      // Spawning failed (no such file, not executable): there is no process to wait for.
      this.child.once('error', (err) => {
        keep(Buffer.from(`\n${err.message}\n`));
        if (this.child.pid === undefined) done({ code: null, signal: null });
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return this.exit === undefined;
  }

  /** The last lines it printed, for errors and the log. */
  logTail(lines = 20): string {
    return this.log.trimEnd().split('\n').slice(-lines).join('\n');
  }

  /**
   * Resolves once `GET /health` answers 200 (llama-server answers 503 while it loads the model);
   * throws when the process exits first, or after `timeoutMs`.
   */
  async ready(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (let wait = 20; ; wait = Math.min(wait * 2, 250)) {
      if (this.exit) throw new Error(`llama-server ${describeExit(this.exit)} before it was ready`);
      if (await this.healthy()) return;
      if (Date.now() > deadline) throw new Error(`llama-server was not ready after ${timeoutMs} ms`);
      await Promise.race([new Promise((resolve) => setTimeout(resolve, wait)), this.exited]);
    }
  }

  private async healthy(): Promise<boolean> {
    try {
      return (await this.send({ url: new URL('/health', this.url), method: 'GET' }, 2_000)).status === 200;
    } catch {
      // Not listening yet (or no longer): the caller looks at the process and the clock.
      return false;
    }
  }

  /** `GET path` (`/props`), or `POST path` with `body`, as JSON, with the child's API key. */
  async json(path: string, apiKey: string, body?: unknown): Promise<unknown> {
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const url = new URL(path, this.url);
    const res = await this.send(
      body === undefined
        ? { url, method: 'GET', headers }
        : { url, method: 'POST', headers, body: JSON.stringify(body) },
      5_000,
    );
    if (res.status !== 200)
      throw new Error(`llama-server answered ${res.status} to ${body === undefined ? 'GET' : 'POST'} ${path}`);
    return JSON.parse(res.body.toString('utf8')) as unknown;
  }

  private send(request: OutboundRequest, idleTimeoutMs: number) {
    return this.http.send(request, { maxBytes: MAX_REPLY_BYTES, idleTimeoutMs, signal: new RequestCancel() });
  }

  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs: number): Promise<ChildExit> {
    if (this.exit) return this.exit;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGKILL at once. */
  kill(): void {
    if (!this.exit) this.child.kill('SIGKILL');
  }
}
