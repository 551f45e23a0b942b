import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlamaCppEngine } from '../src/engines/chat/llama-cpp/engine.js';
import { createLlamaServerEngine } from '../src/engines/chat/llama-server/engine.js';
import { createOpenAICompatibleEngine } from '../src/engines/chat/openai-compatible/index.js';
import type { ChatEngine, ChatRequest } from '../src/engines/chat/types.js';
import { writeGguf } from '../src/test-models/gguf-writer.js';
import { QWEN3_0_6B } from '../src/test-models/qwen3-model.js';
import { randomModel } from '../src/test-models/random-model.js';
import { findLlamaServer, startLlamaServer } from '../test/helpers/llama-server.js';
import { addonKernels } from './addon-kernels.js';
import { quantizedQwen3 } from './quantized-model.js';
import { type BenchRow, benchRow } from './types.js';

/**
 * The embedded engine against llama-server on the same GGUF, for two shapes of random weights whose
 * generation never ends early (special tokens' output rows zeroed): a ~27M-parameter model in F32,
 * and Qwen3-0.6B's shape quantized to Q4_K_M by llama.cpp's llama-quantize (the weights real
 * deployments run; quantized-model.ts caches it). One thread each, greedy, at 1, 4 and 8 concurrent
 * requests: aggregate tokens/s, time to first token and RSS, each as a ratio in the same run, and
 * the CPU each spends per generated token (ours: this process's CPU while only it runs;
 * llama-server's: its process's), which a loaded machine moves much less than tokens/s. Both are
 * driven through the same ChatEngine interface (llama-server through the openai-compatible
 * engine), so the measuring code is one. llama-server runs the addon's own CPU kernels unless
 * BENCH_ENGINES_SERVER_KERNELS=own (addon-kernels.ts). The managed engine (`engine: llama-server`,
 * the same binary run as its child, on its own build's kernels) is measured beside them: tokens/s
 * and time to first token against llama-server reached directly (like for like only with `own`).
 */

interface Shape {
  /** In each row's name. */
  label: string;
  /** Completion tokens a request asks for (and gets: generation never ends early). */
  tokens: number;
  /** Writes or finds the GGUF. */
  model(llamaServer: string, dir: string): Promise<string>;
  /** llama-server flags of this shape when it runs its own build's kernels. */
  ownKernelArgs: readonly string[];
}

const SHAPES: readonly Shape[] = [
  {
    // dim 512, 8 layers, ff 1536: a small model's proportions at a size that runs fast.
    label: '27M F32',
    tokens: Number(process.env['BENCH_ENGINES_TOKENS'] ?? 64),
    async model(_server, dir) {
      const path = join(dir, 'random-small.gguf');
      await writeGguf(path, randomModel(7, { embedding: 512, layers: 8, heads: 8, feedForward: 1536 }, true));
      return path;
    },
    ownKernelArgs: [],
  },
  {
    // 10–30 tokens/s on one thread: fewer tokens keep the shape to a few minutes.
    label: 'Qwen3-0.6B shape Q4_K_M',
    tokens: Number(process.env['BENCH_ENGINES_QUANT_TOKENS'] ?? 32),
    model: (server) => quantizedQwen3(server, QWEN3_0_6B, 'Q4_K_M'),
    // A llama-server built with -march=native on a CPU that reports AMX dies with SIGILL in its AMX
    // matrix kernel on the first quantized decode on some virtual machines (the addon's prebuilt
    // kernel runs there); without the repacked weights it uses the AVX-512 / AVX2 dot products.
    ownKernelArgs: ['--no-repack'],
  },
];
const LEVELS = [1, 4, 8];
/** Waves per engine and concurrency: time to first token is the median over all their requests. */
const ROUNDS = Number(process.env['BENCH_ENGINES_ROUNDS'] ?? 5);
/**
 * `own`: llama-server runs the kernels of its own -march=native build; otherwise the addon's
 * (addon-kernels.ts), so that only the engines differ.
 */
const OWN_KERNELS = process.env['BENCH_ENGINES_SERVER_KERNELS'] === 'own';
/** More flags for the llama-server reached directly, space-separated (`--cache-ram 0`: no prompt cache in RAM). */
const SERVER_ARGS = (process.env['BENCH_ENGINES_SERVER_ARGS'] ?? '').split(' ').filter((a) => a !== '');
/** Bytes of the embedded engine's prompt cache (`embedded.prompt_cache_bytes`, its default); 0: off. */
const PROMPT_CACHE_BYTES = Number(process.env['BENCH_ENGINES_PROMPT_CACHE_BYTES'] ?? 1024 ** 3);
const PROMPT = 'Tell me a long story about a lighthouse keeper and the sea.';
/** Each sequence's context, in tokens (prompt and completion fit in it). */
const CONTEXT = 512;

const request = (tokens: number): ChatRequest => ({
  messages: [{ role: 'user', content: PROMPT }],
  tools: [],
  sampling: { temperature: 0, topP: 1, greedy: true },
  maxTokens: tokens,
  stop: [],
  responseFormat: 'text',
  thinking: false,
});

async function one(engine: ChatEngine, request: ChatRequest): Promise<{ ttft: number; tokens: number }> {
  const start = performance.now();
  let ttft = 0;
  let tokens = 0;
  for await (const part of engine.generate(request, new AbortController().signal)) {
    if (ttft === 0 && part.type === 'text-delta') ttft = performance.now() - start;
    if (part.type === 'finish') tokens = part.usage.completionTokens;
  }
  return { ttft, tokens };
}

/** CPU time (user + system) of a process so far, in ms. */
function cpuMs(pid: number | 'self'): number {
  if (pid === 'self') {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  }
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses; in clock ticks (100/s).
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** One engine's waves at one concurrency, summed over the rounds. */
class Level {
  private seconds = 0;
  private tokens = 0;
  private cpu = 0;
  private readonly ttfts: number[] = [];

  /** One wave: `n` requests at once. */
  async wave(engine: ChatEngine, request: ChatRequest, n: number, pid: number | 'self'): Promise<void> {
    const cpu = cpuMs(pid);
    const start = performance.now();
    const results = await Promise.all(Array.from({ length: n }, () => one(engine, request)));
    this.seconds += (performance.now() - start) / 1000;
    this.cpu += cpuMs(pid) - cpu;
    for (const r of results) {
      this.tokens += r.tokens;
      this.ttfts.push(r.ttft);
    }
  }

  get result(): { tps: number; ttft: number; cpuPerToken: number } {
    const ttfts = [...this.ttfts].sort((a, b) => a - b);
    return {
      tps: this.tokens / this.seconds,
      ttft: ttfts[Math.floor(ttfts.length / 2)] ?? 0,
      cpuPerToken: this.cpu / this.tokens,
    };
  }
}

const rssKb = (pid: number | 'self'): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function runShape(shape: Shape, index: number, llamaServer: string, dir: string): Promise<BenchRow[]> {
  const model = await shape.model(llamaServer, dir);
  const req = request(shape.tokens);
  const side = OWN_KERNELS ? 'llama-server, own build' : "llama-server on the addon's kernels";
  const name = (what: string) => `engines, ${shape.label}: ${what} (embedded vs ${side})`;
  const before = rssKb('self');
  const embedded = await createLlamaCppEngine({
    modelPath: model,
    threads: 1,
    contextSize: CONTEXT,
    parallel: 8,
    promptCacheBytes: PROMPT_CACHE_BYTES,
  });
  const kernels = OWN_KERNELS ? undefined : await addonKernels(llamaServer, join(dir, `kernels-${index}`));
  const server = await startLlamaServer(
    llamaServer,
    model,
    ['-c', String(CONTEXT * 8), '-np', '8', ...SERVER_ARGS, ...(kernels === undefined ? shape.ownKernelArgs : [])],
    { startupMs: 180_000, env: kernels === undefined ? {} : { LD_LIBRARY_PATH: kernels } },
  );
  const upstream = createOpenAICompatibleEngine({
    baseUrl: `${server.url}/v1`,
    model: 'random',
    capabilities: {
      tools: false,
      thinking: false,
      json: false,
      vision: false,
      maxContext: CONTEXT,
      maxOutput: shape.tokens,
    },
    extraBody: { ignore_eos: true },
  });
  // The managed engine (engine: llama-server): the same binary, flags and kernels, run and reached
  // by gen-platform. Its child takes this process's environment, hence the library path set here.
  const libraryPath = process.env['LD_LIBRARY_PATH'];
  if (kernels !== undefined) process.env['LD_LIBRARY_PATH'] = kernels;
  const managed = await createLlamaServerEngine({
    binary: llamaServer,
    settings: {
      modelPath: model,
      threads: 1,
      contextSize: CONTEXT,
      parallel: 8,
      gpu: false,
      alias: 'random',
      extraArgs: [...SERVER_ARGS, ...(kernels === undefined ? shape.ownKernelArgs : [])],
    },
    overrides: { maxOutput: shape.tokens },
    upstream: { extraBody: { ignore_eos: true } },
    log: { info() {}, warn() {}, error() {} },
    label: 'engines bench',
    startTimeoutMs: 180_000,
  });
  const rows: BenchRow[] = [];
  try {
    await one(embedded, req);
    await one(upstream, req);
    await one(managed, req);
    for (const n of LEVELS) {
      const levels = { ours: new Level(), theirs: new Level(), mine: new Level() };
      // Waves alternate, so that machine noise hits every engine alike.
      for (let round = 0; round < ROUNDS; round++) {
        await levels.ours.wave(embedded, req, n, 'self');
        await levels.theirs.wave(upstream, req, n, server.pid);
        await levels.mine.wave(managed, req, n, managed.pid ?? 'self');
      }
      const [ours, theirs, mine] = [levels.ours.result, levels.theirs.result, levels.mine.result];
      const vsServer = (what: string) => `engines, ${shape.label}: ${what} (managed llama-server vs ${side})`;
      rows.push(
        benchRow(vsServer(`aggregate tokens/s at ${n} concurrent`), mine.tps, 'tokens/s', theirs.tps, 1),
        benchRow(vsServer(`median time to first token at ${n} concurrent`), mine.ttft, 'ms', theirs.ttft, 1),
      );
      rows.push(
        benchRow(name(`aggregate tokens/s at ${n} concurrent`), ours.tps, 'tokens/s', theirs.tps, 1),
        benchRow(name(`median time to first token at ${n} concurrent`), ours.ttft, 'ms', theirs.ttft, 1),
        benchRow(name(`CPU per generated token at ${n} concurrent`), ours.cpuPerToken, 'ms', theirs.cpuPerToken, 2),
      );
    }
    const ownRss = rssKb('self') - before;
    rows.push(
      benchRow(name('RSS with the model loaded, 8 sequences'), ownRss / 1024, 'MB', rssKb(server.pid) / 1024, 1),
    );
  } finally {
    await embedded.close();
    await upstream.close();
    await managed.close();
    await server.stop();
    if (libraryPath === undefined) delete process.env['LD_LIBRARY_PATH'];
    else process.env['LD_LIBRARY_PATH'] = libraryPath;
  }
  return rows;
}

export async function run(): Promise<BenchRow[]> {
  const found = findLlamaServer();
  if ('reason' in found) throw new Error(`engines bench needs llama-server: ${found.reason}`);
  const dir = await mkdtemp(join(tmpdir(), 'bench-engines-'));
  try {
    const rows: BenchRow[] = [];
    for (const [i, shape] of SHAPES.entries()) rows.push(...(await runShape(shape, i, found.path, dir)));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
