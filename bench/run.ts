/**
 * `npm run bench [-- NAME...]`: runs the benchmark modules one after the other, each in a child
 * process of its own (so that one's heap and JIT state do not skew the next), and prints one table
 * of every row (docs/benchmarks.md). A module that fails or runs past its time limit gives an error row
 * and the others still run. The table is also written to `.bench-out/results.json`.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ModuleMessage } from './run-module.js';
import { errorRow, formatTable, type TableRow, tableRow } from './table.js';

interface ModuleEntry {
  name: string;
  /** Relative to bench/. */
  file: string;
  /** What it compares, for `--list`. */
  about: string;
  /** Killed after this long. */
  limitMinutes: number;
}

export const MODULES: readonly ModuleEntry[] = [
  {
    name: 'gateway',
    file: 'gateway.ts',
    about:
      'full server path (auth, validation, SSE, usage record) vs a zero-cost fake upstream called directly; the money path (prices configured) vs the same server without prices',
    limitMinutes: 10,
  },
  {
    name: 'gateway-llama',
    file: 'gateway-llama.ts',
    about: 'full server path vs a real local llama.cpp upstream (random test GGUF, 64 sequences) called directly',
    limitMinutes: 10,
  },
  {
    name: 'upstream-engine',
    file: 'upstream-gateway.ts',
    about: 'openai-compatible engine alone (SSE parsing into parts) vs undici reading the stream directly',
    limitMinutes: 10,
  },
  {
    name: 'embedded',
    file: 'embedded-engine.ts',
    about: 'embedded engine tokens/s vs node-llama-cpp LlamaChat on the same model',
    limitMinutes: 15,
  },
  {
    name: 'engines',
    file: 'engines.ts',
    about:
      'embedded engine vs llama-server on the same GGUF at 1, 4 and 8 concurrent, two shapes (random weights: ~27M F32; Qwen3-0.6B Q4_K_M, made once by llama-quantize): tokens/s, TTFT, CPU per token, RSS',
    limitMinutes: 30,
  },
  {
    name: 'fairness',
    file: 'fairness.ts',
    about:
      "a lone key's call while another key floods (embedded engine, capped upstream): fair queue vs alone and vs FIFO",
    limitMinutes: 10,
  },
  {
    name: 'tokenizer',
    file: 'tokenizer.ts',
    about: 'POST /paas/v4/tokenizer on the embedded engine vs the engine’s countTokens called directly',
    limitMinutes: 10,
  },
  {
    name: 'images',
    file: 'images.ts',
    about: 'sync image call through the platform vs the same engine called directly; async tasks/s vs the worker limit',
    limitMinutes: 10,
  },
  {
    name: 'reader',
    file: 'reader/run.ts',
    about: 'web reader extraction F1 and speed vs Readability on jsdom',
    limitMinutes: 20,
  },
  {
    name: 'soak',
    file: 'soak.ts',
    about:
      'mixed traffic for BENCH_SOAK_MINUTES (default 1) on 1 process vs 2 (PostgreSQL + Redis): 5xx, latency, RSS growth',
    limitMinutes: 40,
  },
  {
    name: 'search',
    file: 'search/run.ts',
    about:
      'web search: nDCG@10 with and without 63,666 short distractors, latency/build/size at 10k-1M on SQLite and PostgreSQL, vs today’s ranking',
    // Building the 1M indexes the first time takes most of it (cached after).
    limitMinutes: 480,
  },
  {
    name: 'langid',
    file: 'langid.ts',
    about: 'source_lang auto: accuracy of eld (chosen) vs franc-min and tinyld on 300 sentences in 20 languages',
    limitMinutes: 5,
  },
  {
    name: 'agents',
    file: 'agents.ts',
    about:
      'translation agent overhead vs the same chat-engine calls made directly; glossary adherence with and without repair',
    limitMinutes: 15,
  },
];

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const OUT_DIR = fileURLToPath(new URL('../.bench-out/', import.meta.url));
const CHILD = fileURLToPath(new URL('./run-module.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

let current: ChildProcess | undefined;

/** Signals the child's whole process group (its own children included). */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal);
  }
}

function runModule(entry: ModuleEntry): Promise<TableRow[]> {
  return new Promise((resolve) => {
    const child = fork(CHILD, [BENCH_DIR + entry.file], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Its own process group, so that a time-out also stops the processes it started.
      detached: true,
    });
    current = child;
    let message: ModuleMessage | undefined;
    let timedOut = false;
    const limitMs = entry.limitMinutes * 60_000;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGTERM');
      setTimeout(() => killGroup(child, 'SIGKILL'), 5_000).unref();
    }, limitMs);
    child.on('message', (m) => {
      message = m as ModuleMessage;
    });
    const finish = (rows: TableRow[]) => {
      clearTimeout(timer);
      current = undefined;
      resolve(rows);
    };
    child.once('error', (err) => finish([errorRow(entry.name, err.message)]));
    child.once('exit', (code, signal) => {
      // Whatever the module started and left behind goes with it.
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // The group is gone already.
        }
      }
      if (message && 'rows' in message) finish(message.rows.map((row) => tableRow(entry.name, row)));
      else if (message && 'error' in message) finish([errorRow(entry.name, firstLine(message.error))]);
      else if (timedOut) finish([errorRow(entry.name, `no result within ${entry.limitMinutes} min (stopped)`)]);
      else finish([errorRow(entry.name, `exited with ${signal ?? code} and no result`)]);
      if (message && 'error' in message) process.stderr.write(`${entry.name}: ${message.error}\n`);
    });
  });
}

const firstLine = (text: string) => (text.split('\n')[0] ?? text).slice(0, 300);

async function main(): Promise<number> {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.includes('--list') || args.includes('--help')) {
    for (const m of MODULES) console.log(`${m.name.padEnd(16)} ${m.about}`);
    console.log('\nnpm run bench [-- NAME...]   (no names: all of them)');
    return 0;
  }
  const unknown = args.filter((a) => !MODULES.some((m) => m.name === a));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.join(', ')}; known: ${MODULES.map((m) => m.name).join(', ')}`);
    return 2;
  }
  const chosen = args.length > 0 ? MODULES.filter((m) => args.includes(m.name)) : MODULES;
  // The benchmarks run the server as `npm start` does, from dist/ (bench/gateway/app.ts): compile it
  // from the tree being measured.
  process.stderr.write('bench: compiling dist/ (tsc -p tsconfig.build.json)...\n');
  execFileSync(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });

  const startedAt = new Date();
  const rows: TableRow[] = [];
  const runs: { name: string; seconds: number; ok: boolean }[] = [];
  for (const entry of chosen) {
    process.stderr.write(`bench: ${entry.name} (${entry.about})...\n`);
    const start = performance.now();
    const result = await runModule(entry);
    const seconds = Math.round((performance.now() - start) / 100) / 10;
    const ok = !result.some((r) => r.error !== undefined);
    process.stderr.write(`bench: ${entry.name} ${ok ? 'done' : 'FAILED'} in ${seconds} s\n`);
    runs.push({ name: entry.name, seconds, ok });
    rows.push(...result);
  }

  console.log(formatTable(rows));
  mkdirSync(OUT_DIR, { recursive: true });
  const results = {
    startedAt: startedAt.toISOString(),
    node: process.version,
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    modules: runs,
    rows,
  };
  writeFileSync(`${OUT_DIR}results.json`, `${JSON.stringify(results, null, 2)}\n`);
  process.stderr.write(`bench: table written to .bench-out/results.json\n`);
  return runs.every((r) => r.ok) ? 0 : 1;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (current) killGroup(current, 'SIGKILL');
    process.exit(130);
  });
}

process.exitCode = await main();
