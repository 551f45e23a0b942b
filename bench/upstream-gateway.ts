/**
 * Added cost of the upstream chat path: streaming a short completion from a local fake upstream
 * through the OpenAI-compatible engine (parsing every SSE event into parts) against reading the same
 * stream with undici directly. The upstream runs in a child process, as a real one would, so that
 * the CPU time measured here is the client side's alone.
 */

import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Agent } from 'undici';
import { createOpenAICompatibleEngine } from '../src/engines/chat/openai-compatible/index.js';
import type { ChatEngine, ChatRequest } from '../src/engines/chat/types.js';

import type { BenchRow } from './types.js';

export type { BenchRow };

const SEQUENTIAL = 300;
const CONCURRENCY = 64;
const CONCURRENT_TOTAL = 3_000;
const ROUNDS = 5;

// A plain-JS upstream: a vLLM-shaped stream of a fixed 8-token reply, usage chunk and [DONE].
const UPSTREAM_SOURCE = `
const http = require('node:http');
const head = '{"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1747393912,"model":"bench","choices":[';
const events = ['data: ' + head + '{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}\\n\\n'];
for (const word of ['The', ' quick', ' brown', ' fox', ' jumps', ' over', ' the', ' dog.']) {
  events.push('data: ' + head + '{"index":0,"delta":{"content":' + JSON.stringify(word) + '},"logprobs":null,"finish_reason":null}]}\\n\\n');
}
events.push('data: ' + head + '{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"stop","stop_reason":null}]}\\n\\n');
events.push('data: ' + head + '],"usage":{"prompt_tokens":12,"total_tokens":20,"completion_tokens":8}}\\n\\n');
events.push('data: [DONE]\\n\\n');
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    for (const event of events) res.write(event);
    res.end();
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
// Ends with the benchmark, even if that dies without stopping it.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

const REQUEST: ChatRequest = {
  messages: [{ role: 'user', content: 'Say something short.' }],
  tools: [],
  sampling: { temperature: 0.7, topP: 0.9, greedy: false },
  maxTokens: 16,
  stop: [],
  responseFormat: 'text',
  thinking: false,
};

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

interface Target {
  once(): Promise<void>;
}

function directTarget(origin: string, agent: Agent): Target {
  const body = JSON.stringify({
    model: 'bench',
    messages: REQUEST.messages,
    temperature: 0.7,
    top_p: 0.9,
    max_tokens: 16,
    stream: true,
    stream_options: { include_usage: true },
  });
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
  return {
    async once() {
      const response = await agent.request({ origin, path: '/v1/chat/completions', method: 'POST', headers, body });
      let bytes = 0;
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) bytes += chunk.length;
      if (response.statusCode !== 200 || bytes === 0) throw new Error(`direct call failed: ${response.statusCode}`);
    },
  };
}

function engineTarget(engine: ChatEngine): Target {
  return {
    async once() {
      let finished = false;
      for await (const part of engine.generate(REQUEST, new AbortController().signal)) {
        if (part.type === 'finish') finished = true;
      }
      if (!finished) throw new Error('engine stream ended without a finish part');
    },
  };
}

async function sequentialLatencies(target: Target, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await target.once();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}

interface Load {
  rate: number;
  /** Client-side CPU (user + system) per request, in µs. */
  cpuMicros: number;
}

async function throughput(target: Target, total: number, concurrency: number): Promise<Load> {
  let next = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await target.once();
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const used = process.cpuUsage(cpu);
  return { rate: total / seconds, cpuMicros: (used.user + used.system) / total };
}

async function startUpstream(): Promise<{ origin: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', UPSTREAM_SOURCE], { stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`fake upstream exited with ${code}`)));
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.stdin.end() };
}

export async function run(): Promise<BenchRow[]> {
  const upstream = await startUpstream();
  const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
  const engine = createOpenAICompatibleEngine({
    baseUrl: `${upstream.origin}/v1`,
    model: 'bench',
    capabilities: { tools: false, thinking: false, json: false, vision: false, maxContext: 4096, maxOutput: 1024 },
  });
  const direct = directTarget(upstream.origin, agent);
  const gateway = engineTarget(engine);
  try {
    // Warm both paths (JIT, connections) before measuring.
    await sequentialLatencies(direct, 100);
    await sequentialLatencies(gateway, 100);
    await throughput(direct, 500, CONCURRENCY);
    await throughput(gateway, 500, CONCURRENCY);

    // Alternating rounds, so that drift on a shared machine lands on both sides.
    const directTimes: number[] = [];
    const gatewayTimes: number[] = [];
    const directLoads: Load[] = [];
    const gatewayLoads: Load[] = [];
    const perRound = Math.ceil(SEQUENTIAL / ROUNDS);
    for (let round = 0; round < ROUNDS; round++) {
      directTimes.push(...(await sequentialLatencies(direct, perRound)));
      gatewayTimes.push(...(await sequentialLatencies(gateway, perRound)));
      directLoads.push(await throughput(direct, CONCURRENT_TOTAL / ROUNDS, CONCURRENCY));
      gatewayLoads.push(await throughput(gateway, CONCURRENT_TOTAL / ROUNDS, CONCURRENCY));
    }
    const directMedian = median(directTimes);
    const gatewayMedian = median(gatewayTimes);
    const directRate = median(directLoads.map((l) => l.rate));
    const gatewayRate = median(gatewayLoads.map((l) => l.rate));
    const directCpu = median(directLoads.map((l) => l.cpuMicros));
    const gatewayCpu = median(gatewayLoads.map((l) => l.cpuMicros));
    const round3 = (n: number) => Math.round(n * 1000) / 1000;
    return [
      {
        name: 'upstream chat: median latency per streamed request, 1 at a time (vs direct undici)',
        value: round3(gatewayMedian),
        unit: 'ms',
        baseline: round3(directMedian),
        ratio: round3(gatewayMedian / directMedian),
      },
      {
        name: 'upstream chat: added median latency (vs 1 ms budget)',
        value: round3(gatewayMedian - directMedian),
        unit: 'ms',
        baseline: 1,
        ratio: round3(gatewayMedian - directMedian),
      },
      {
        name: `upstream chat: throughput at ${CONCURRENCY} concurrent streams (vs direct undici)`,
        value: Math.round(gatewayRate),
        unit: 'req/s',
        baseline: Math.round(directRate),
        ratio: round3(gatewayRate / directRate),
      },
      {
        name: `upstream chat: client CPU per request at ${CONCURRENCY} concurrent streams (vs direct undici)`,
        value: Math.round(gatewayCpu),
        unit: 'µs',
        baseline: Math.round(directCpu),
        ratio: round3(gatewayCpu / directCpu),
      },
    ];
  } finally {
    await engine.close();
    await agent.close();
    upstream.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
}
