import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLlamaCppEngine } from '../src/engines/chat/llama-cpp/engine.js';
import { createOpenAICompatibleEngine } from '../src/engines/chat/openai-compatible/index.js';
import type { ChatEngine, ChatRequest } from '../src/engines/chat/types.js';
import { writeGguf } from '../src/test-models/gguf-writer.js';
import { randomModel } from '../src/test-models/random-model.js';
import { findLlamaServer, startLlamaServer } from '../test/helpers/llama-server.js';
import { type BenchRow, benchRow } from './types.js';

/**
 * The embedded engine against llama-server on the same GGUF: random weights of a small
 * model's shape whose generation never ends early (special tokens' output rows zeroed), one thread
 * each, greedy, at 1, 4 and 8 concurrent requests: aggregate tokens/s, time to first token and RSS,
 * each as a ratio in the same run, and the CPU each spends per generated token (ours: this process's
 * CPU while only it runs; llama-server's: its process's), which a loaded machine moves much less
 * than tokens/s. Both are driven through the same ChatEngine interface (llama-server
 * through the openai-compatible engine), so the measuring code is one.
 */

/** ~27M parameters (dim 512, 8 layers, ff 1536): a small model's proportions at a size this machine runs. */
const SHAPE = { embedding: 512, layers: 8, heads: 8, feedForward: 1536 };
const TOKENS = Number(process.env['BENCH_ENGINES_TOKENS'] ?? 64);
const LEVELS = [1, 4, 8];
const PROMPT = 'Tell me a long story about a lighthouse keeper and the sea.';

const request: ChatRequest = {
  messages: [{ role: 'user', content: PROMPT }],
  tools: [],
  sampling: { temperature: 0, topP: 1, greedy: true },
  maxTokens: TOKENS,
  stop: [],
  responseFormat: 'text',
  thinking: false,
};

async function one(engine: ChatEngine): Promise<{ ttft: number; tokens: number }> {
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

async function level(
  engine: ChatEngine,
  n: number,
  pid: number | 'self',
): Promise<{ tps: number; ttft: number; cpuPerToken: number }> {
  const cpu = cpuMs(pid);
  const start = performance.now();
  const results = await Promise.all(Array.from({ length: n }, () => one(engine)));
  const seconds = (performance.now() - start) / 1000;
  const tokens = results.reduce((a, r) => a + r.tokens, 0);
  const ttfts = results.map((r) => r.ttft).sort((a, b) => a - b);
  return {
    tps: tokens / seconds,
    ttft: ttfts[Math.floor(ttfts.length / 2)] ?? 0,
    cpuPerToken: (cpuMs(pid) - cpu) / tokens,
  };
}

const rssKb = (pid: number | 'self'): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

export async function run(): Promise<BenchRow[]> {
  const found = findLlamaServer();
  if ('reason' in found) throw new Error(`engines bench needs llama-server: ${found.reason}`);
  const dir = await mkdtemp(join(tmpdir(), 'bench-engines-'));
  const model = join(dir, 'random-small.gguf');
  try {
    await writeGguf(model, randomModel(7, SHAPE, true));
    const before = rssKb('self');
    const embedded = await createLlamaCppEngine({ modelPath: model, threads: 1, contextSize: 512, parallel: 8 });
    const server = await startLlamaServer(found.path, model, ['-c', String(512 * 8), '-np', '8']);
    const upstream = createOpenAICompatibleEngine({
      baseUrl: `${server.url}/v1`,
      model: 'random',
      capabilities: { tools: false, thinking: false, json: false, vision: false, maxContext: 512, maxOutput: TOKENS },
      extraBody: { ignore_eos: true },
    });
    const rows: BenchRow[] = [];
    try {
      await one(embedded);
      await one(upstream);
      for (const n of LEVELS) {
        // Alternating, so that machine noise hits both alike.
        const ours = await level(embedded, n, 'self');
        const theirs = await level(upstream, n, server.pid);
        rows.push(
          benchRow(
            `engines: aggregate tokens/s at ${n} concurrent (embedded vs llama-server)`,
            ours.tps,
            'tokens/s',
            theirs.tps,
            1,
          ),
          benchRow(
            `engines: median time to first token at ${n} concurrent (embedded vs llama-server)`,
            ours.ttft,
            'ms',
            theirs.ttft,
            1,
          ),
          benchRow(
            `engines: CPU per generated token at ${n} concurrent (embedded vs llama-server)`,
            ours.cpuPerToken,
            'ms',
            theirs.cpuPerToken,
            2,
          ),
        );
      }
      const ownRss = rssKb('self') - before;
      const serverRss = rssKb(server.pid);
      rows.push(
        benchRow(
          'engines: RSS with the model loaded, 8 sequences (embedded vs llama-server)',
          ownRss / 1024,
          'MB',
          serverRss / 1024,
          1,
        ),
      );
    } finally {
      await embedded.close();
      await upstream.close();
      await server.stop();
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
