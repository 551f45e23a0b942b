import { spawn } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  createLlamaServerEngine,
  type LlamaServerEngineOptions,
} from '../../../src/engines/chat/llama-server/engine.js';
import type { ChatEngine, ChatRequest, ChatStreamPart } from '../../../src/engines/chat/types.js';

const FAKE = resolve('test/helpers/fake-llama-server.mjs');

/** An executable that runs the fake llama-server in `mode` (`exec`: its pid is the server's). */
export async function fakeBinary(dir: string, mode: '' | 'fail' | 'slow' | 'stubborn' | 'dies' = ''): Promise<string> {
  const file = join(dir, `fake-llama-server-${mode || 'plain'}`);
  await writeFile(file, `#!/bin/sh\nFAKE_LLAMA_MODE=${mode} exec "${process.execPath}" "${FAKE}" "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

export interface Logged {
  errors: string[];
  infos: string[];
}

export function managed(
  binary: string,
  modelPath: string,
  over: Partial<LlamaServerEngineOptions> = {},
): { logged: Logged; start(): ReturnType<typeof createLlamaServerEngine> } {
  const logged: Logged = { errors: [], infos: [] };
  return {
    logged,
    start: () =>
      createLlamaServerEngine({
        binary,
        settings: { modelPath, threads: 1, contextSize: 1024, parallel: 2, gpu: false, alias: 'test', extraArgs: [] },
        overrides: {},
        upstream: {},
        log: {
          info: (m) => logged.infos.push(m),
          warn: (_d, m) => logged.errors.push(m),
          error: (_d, m) => logged.errors.push(m),
        },
        label: 'the test deployment',
        backoff: { firstMs: 50, maxMs: 200 },
        stopGraceMs: 500,
        startTimeoutMs: 30_000,
        ...over,
      }),
  };
}

export function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello there, how are you today?' },
    ],
    tools: [],
    sampling: { temperature: 0.7, topP: 0.9, greedy: true },
    maxTokens: 64,
    stop: [],
    responseFormat: 'text',
    thinking: false,
    ...overrides,
  };
}

export async function collect(engine: ChatEngine, req: ChatRequest): Promise<ChatStreamPart[]> {
  const parts: ChatStreamPart[] = [];
  for await (const part of engine.generate(req, new AbortController().signal)) parts.push(part);
  return parts;
}

export const textOf = (parts: ChatStreamPart[]) => parts.map((p) => (p.type === 'text-delta' ? p.text : '')).join('');

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits until `pid` is gone; false after `ms`. */
export async function gone(pid: number, ms = 3_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !isRunning(pid);
}

/**
 * A separate Node process that starts a managed engine on `binary` and `model`, prints the child's
 * pid, and waits: killing it with SIGKILL shows whether the child outlives it.
 */
export async function parentWithChild(binary: string, model: string): Promise<{ parent: number; child: number }> {
  const parent = spawn(
    process.execPath,
    ['--import', 'tsx', resolve('test/engines/llama-server/parent-process.ts'), binary, model],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const child = await new Promise<number>((resolvePid, reject) => {
    let out = '';
    parent.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(\d+)\n/.exec(out);
      if (line) resolvePid(Number(line[1]));
    });
    parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before its child started: ${out}`)));
  });
  return { parent: parent.pid!, child };
}
