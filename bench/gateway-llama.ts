/**
 * Issue 3's gateway targets against a REAL local upstream: the llama.cpp runtime (our embedded
 * engine behind our own server, gateway/llama-upstream.ts) serving the random-weights test GGUF,
 * 64 sequences, one thread. The load generator (gateway/load.ts) calls it directly, and through our
 * gateway server (gateway/server.ts: openai-compatible engine pointed at it), in rotating rounds.
 * The upstream is pinned to CPU 0 and the gateway and load generator to CPU 1 (see below); the
 * `gateway` module measures the same path, unpinned, against an upstream that costs nothing
 * (canned bytes), the worst case for any proxy. `BENCH_GATEWAY_PROFILE=FILE` writes
 * a V8 CPU profile of the gateway server during the measured rounds.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Remote, startChild } from './gateway/ipc.js';
import type { TargetSpec } from './gateway/load.js';
import { addedLatencyRow, loadPhases } from './gateway/phases.js';
import { pinToCpu } from './gateway/pin.js';
import { type Cpu, cpuMicros, median, quantile, range } from './gateway/stats.js';
import { type BenchRow, benchRow } from './types.js';

const MAX_TOKENS = 16;
const CONCURRENCY = 64;
const SEQ_PER_ROUND = 40;
const CONC_PER_ROUND = 640;
const ROUNDS = 5;
const PHASE_DEADLINE_MS = 60_000;

const file = (name: string) => fileURLToPath(new URL(`./gateway/${name}`, import.meta.url));

const BODY = JSON.stringify({
  model: 'gen-4.6',
  messages: [{ role: 'user', content: 'Tell me about the sea.' }],
  max_tokens: MAX_TOKENS,
  stream: true,
});

export async function run(): Promise<BenchRow[]> {
  const upstream = await startChild<{ origin: string; key: string }>(file('llama-upstream.ts'));
  let server: Remote<{ origin: string; key: string }> | undefined;
  let load: Remote<{ pid: number }> | undefined;
  let bare: Remote<{ origin: string }> | undefined;
  try {
    bare = await startChild<{ origin: string }>(file('bare-proxy.ts'), {
      args: [upstream.ready.origin, '/paas/v4/chat/completions'],
    });
    server = await startChild<{ origin: string; key: string }>(file('server.ts'), {
      args: [`${upstream.ready.origin}/paas/v4`, 'gen-4.6', upstream.ready.key],
    });
    load = await startChild<{ pid: number }>(file('load.ts'));
    // The upstream gets a core of its own in both arms, as an inference server has its own machine
    // in production; the gateway and the load generator share the other. Unpinned, the gateway's
    // CPU for every relayed token is taken from the inference itself, and the measure becomes the
    // gateway's CPU time rather than its latency and throughput.
    // `BENCH_GATEWAY_PIN=0` runs them unpinned.
    const pinned =
      process.env['BENCH_GATEWAY_PIN'] !== '0' &&
      pinToCpu(upstream.child.pid!, 0) &&
      pinToCpu(server.child.pid!, 1) &&
      pinToCpu(bare.child.pid!, 1) &&
      pinToCpu(load.child.pid!, 1);
    const target = (name: string, origin: string, key: string): TargetSpec => ({
      name,
      origin,
      path: '/paas/v4/chat/completions',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${key}` },
      body: BODY,
      expect: 'sse',
    });
    await load.call('target', target('direct', upstream.ready.origin, upstream.ready.key));
    await load.call('target', target('gateway', server.ready.origin, server.ready.key));
    await load.call('target', target('bare', bare.ready.origin, upstream.ready.key));
    const names = ['direct', 'bare', 'gateway'];

    const l = load;
    const { seq, conc } = loadPhases(l, CONCURRENCY, PHASE_DEADLINE_MS);
    const cpuOf = (proc: Remote<unknown>) => proc.call<Cpu>('cpu');

    // Warm-up: model load, JIT, connections, every sequence's prompt cache.
    for (const name of names) {
      await seq(name, 20);
      await conc(name, CONC_PER_ROUND);
    }

    const profileFile = process.env['BENCH_GATEWAY_PROFILE'];
    if (profileFile) await server.call('profileStart');
    const times: Record<string, number[]> = { direct: [], bare: [], gateway: [] };
    const rates: Record<string, number[]> = { direct: [], bare: [], gateway: [] };
    const serverCpu: number[] = [];
    const bareCpu: number[] = [];
    const upstreamCpu: number[] = [];
    const b = bare;
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate which target goes first.
      const order = names.map((_, i) => names[(i + round) % names.length]!);
      for (const name of order) {
        times[name]!.push(...(await seq(name, SEQ_PER_ROUND)));
        const [s0, b0, u0] = await Promise.all([cpuOf(server), cpuOf(b), cpuOf(upstream)]);
        const result = await conc(name, CONC_PER_ROUND);
        const [s1, b1, u1] = await Promise.all([cpuOf(server), cpuOf(b), cpuOf(upstream)]);
        rates[name]!.push(result.rate);
        if (name === 'gateway') {
          serverCpu.push(cpuMicros(s0, s1) / result.done);
          upstreamCpu.push(cpuMicros(u0, u1) / result.done);
        } else if (name === 'bare') bareCpu.push(cpuMicros(b0, b1) / result.done);
      }
    }

    if (profileFile) await server.call('profileStop', { file: profileFile });
    const d = times['direct']!;
    const g = times['gateway']!;
    const bt = times['bare']!;
    process.stderr.write(
      [
        `gateway-llama bench: c=1 median direct ${median(d).toFixed(3)} ms, bare proxy ${median(bt).toFixed(3)} ms, gateway ${median(g).toFixed(3)} ms`,
        `  c=${CONCURRENCY} req/s per round: direct ${range(rates['direct']!)}, bare proxy ${range(rates['bare']!)}, gateway ${range(rates['gateway']!)}`,
        `  CPU µs/request at c=${CONCURRENCY}: gateway ${range(serverCpu)}, bare proxy ${range(bareCpu)}, llama.cpp upstream ${range(upstreamCpu)}`,
        '',
      ].join('\n'),
    );
    const where = pinned ? 'on a core of its own' : 'NOT pinned: sharing cores with the gateway';
    const label = `llama.cpp upstream (random test GGUF, 1 thread, ${CONCURRENCY} sequences, ${MAX_TOKENS} tokens, ${where})`;
    return [
      addedLatencyRow(
        `gateway, ${label}: ADDED median latency at concurrency 1 (baseline column = 1 ms target; ratio < 1 passes)`,
        median(g),
        median(d),
      ),
      addedLatencyRow(
        `gateway, ${label}: floor — ADDED median latency at concurrency 1 of a bare pass-through proxy`,
        median(bt),
        median(d),
      ),
      benchRow(
        `gateway, ${label}: p99 latency at concurrency 1, through vs direct`,
        quantile(g, 0.99),
        'ms',
        quantile(d, 0.99),
      ),
      benchRow(
        `gateway, ${label}: throughput at ${CONCURRENCY} concurrent streams, through vs direct (target ratio ≥ 0.5)`,
        median(rates['gateway']!),
        'req/s',
        median(rates['direct']!),
        0,
      ),
      benchRow(
        `gateway, ${label}: gateway process CPU per streamed request at ${CONCURRENCY} concurrent, vs the upstream's`,
        median(serverCpu),
        'µs',
        median(upstreamCpu),
        0,
      ),
      benchRow(
        `gateway, ${label}: gateway process CPU per streamed request at ${CONCURRENCY} concurrent, vs the bare pass-through proxy's`,
        median(serverCpu),
        'µs',
        median(bareCpu),
        0,
      ),
    ];
  } finally {
    await Promise.allSettled([load?.stop(), server?.stop(), bare?.stop()]);
    await upstream.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
  process.exit(0);
}
