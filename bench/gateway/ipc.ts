/**
 * A tiny request/response protocol over a forked child's IPC channel, for the gateway benchmark's
 * processes (fake upstream, server, load generator). Every call has a time limit, and a child exits
 * when its parent goes away, so nothing outlives the benchmark.
 */
import { type ChildProcess, fork } from 'node:child_process';

interface CallMessage {
  id: number;
  cmd: string;
  args: unknown;
}
type ReplyMessage = { id: number; result: unknown } | { id: number; error: string };
interface ReadyMessage {
  ready: unknown;
}

export type Handlers = Record<string, (args: never) => unknown>;

/**
 * Child side: answers the parent's calls with `handlers`, after announcing `ready`. A `stop`
 * handler cleans up; the process exits once its reply is sent.
 */
export function serveParent(handlers: Handlers, ready: unknown): void {
  if (!process.send) throw new Error('not started with an IPC channel');
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (raw) => {
    const { id, cmd, args } = raw as CallMessage;
    const handler = handlers[cmd] as ((a: unknown) => unknown) | undefined;
    try {
      if (!handler) throw new Error(`unknown command ${cmd}`);
      const result = await handler(args);
      // After `stop` has cleaned up, the process ends once its reply is out.
      const then = () => {
        if (cmd === 'stop') process.exit(0);
      };
      process.send?.({ id, result } satisfies ReplyMessage, then);
    } catch (err) {
      process.send?.({
        id,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      } satisfies ReplyMessage);
    }
  });
  process.send({ ready } satisfies ReadyMessage);
}

export interface Remote<Ready> {
  ready: Ready;
  child: ChildProcess;
  call<T>(cmd: string, args?: unknown, timeoutMs?: number): Promise<T>;
  /** Asks the child to stop (cmd `stop` if it has one), then kills it if it lingers. */
  stop(): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
}

/** Forks `file` under tsx and waits for its `ready` message. */
export function startChild<Ready>(file: string, options: StartOptions = {}): Promise<Remote<Ready>> {
  const child = fork(file, options.args ?? [], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: options.env ?? process.env,
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let exited = false;
  child.on('exit', (code, signal) => {
    exited = true;
    for (const p of pending.values()) p.reject(new Error(`${file} exited with ${signal ?? code}`));
    pending.clear();
  });
  return new Promise((resolve, reject) => {
    const startTimer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${file} did not start within ${options.startTimeoutMs ?? 60_000} ms`));
    }, options.startTimeoutMs ?? 60_000);
    child.once('exit', (code, signal) => {
      clearTimeout(startTimer);
      reject(new Error(`${file} exited with ${signal ?? code} before it was ready`));
    });
    child.on('message', (raw) => {
      if (typeof raw === 'object' && raw !== null && 'ready' in raw) {
        clearTimeout(startTimer);
        const remote: Remote<Ready> = {
          ready: (raw as ReadyMessage).ready as Ready,
          child,
          call<T>(cmd: string, args?: unknown, timeoutMs = 120_000): Promise<T> {
            if (exited) return Promise.reject(new Error(`${file} is not running`));
            const id = nextId++;
            return new Promise<T>((res, rej) => {
              const timer = setTimeout(() => {
                pending.delete(id);
                rej(new Error(`${cmd} on ${file} took over ${timeoutMs} ms`));
              }, timeoutMs);
              pending.set(id, {
                resolve: (v) => {
                  clearTimeout(timer);
                  res(v as T);
                },
                reject: (e) => {
                  clearTimeout(timer);
                  rej(e);
                },
              });
              child.send({ id, cmd, args: args ?? null } satisfies CallMessage);
            });
          },
          async stop() {
            if (exited) return;
            const gone = new Promise<void>((res) => child.once('exit', () => res()));
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            try {
              await remote.call('stop', null, 10_000);
            } catch {
              child.kill('SIGTERM');
            }
            await gone;
            clearTimeout(kill);
          },
        };
        resolve(remote);
        return;
      }
      const reply = raw as ReplyMessage;
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(reply.error));
      else p.resolve(reply.result);
    });
  });
}
