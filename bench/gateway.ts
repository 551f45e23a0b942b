/**
 * Acceptance measurement of issue 3 (design.md §8): the FULL upstream chat path of our server —
 * socket, routing, authentication, limiter, validation, rules, engine call, SSE parsing and
 * re-encoding, usage record — against calling the same fake upstream directly.
 *
 * Three processes besides this one, all on 127.0.0.1: the fake OpenAI-compatible upstream
 * (gateway/upstream.ts), our server (gateway/server.ts: buildApp + createServices, SQLite in a temp
 * dir) and the load generator (gateway/load.ts: undici Pool, keep-alive); a fourth, the bare
 * pass-through proxy (gateway/bare-proxy.ts: node:http in, undici out, bytes piped), is the floor any
 * Node proxy pays on this machine. Rounds rotate the direct, bare and gateway targets so that drift
 * on a shared machine lands on all of them.
 *
 * This upstream writes canned bytes and costs ~30 µs of CPU per stream, so at 64 concurrent streams
 * the measure is the gateway's CPU against the upstream's on the shared two cores: the worst case
 * for any proxy (the bare one included). Issue 3's targets (gateway adds < 1 ms median at
 * concurrency 1, keeps ≥ 0.5× the direct throughput at 64 streams) hold against a real inference
 * upstream in gateway-llama.ts; here the added latency is the stricter figure. `BENCH_GATEWAY_PROFILE=FILE` writes a V8 CPU profile of the server during
 * the measured rounds to FILE (summary: gateway/profile-summary.ts); `BENCH_STAGES=1` prints the wall
 * time of the server's stages (gateway/server.ts). `BENCH_GATEWAY_BASE=DIR` also runs the server of another
 * tree (e.g. `git archive <commit> | tar -x -C DIR` with node_modules linked) as target `base`, in
 * the same rotation: a before/after comparison that the machine's drift cannot fake.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Remote, startChild } from './gateway/ipc.js';
import type { TargetSpec } from './gateway/load.js';
import { addedLatencyRow, loadPhases } from './gateway/phases.js';
import { type Cpu, cpuMicros, median, quantile, range } from './gateway/stats.js';
import { type BenchRow, benchRow } from './types.js';

const SEQ_PER_ROUND = 100;
const CONC_PER_ROUND = 1_000;
const ROUNDS = 5;
const CONCURRENCY = 64;
const WARM_SEQ = 200;
const WARM_CONC = 1_000;
/** No phase runs longer than this, whatever the machine does. */
const PHASE_DEADLINE_MS = 60_000;

const file = (name: string) => fileURLToPath(new URL(`./gateway/${name}`, import.meta.url));

const MESSAGES = [
  { role: 'system', content: 'You are a helpful assistant. Answer in one short sentence.' },
  { role: 'user', content: 'Say something short about foxes.' },
];

type Stages = Record<string, { calls: number; micros: number; cpuMicros: number }>;

export async function run(): Promise<BenchRow[]> {
  const profileFile = process.env['BENCH_GATEWAY_PROFILE'];
  const upstream = await startChild<{ port: number }>(file('upstream.ts'));
  let server: Remote<{ origin: string; key: string }> | undefined;
  let bare: Remote<{ origin: string }> | undefined;
  let load: Remote<{ pid: number }> | undefined;
  let base: Remote<{ origin: string; key: string }> | undefined;
  const baseTree = process.env['BENCH_GATEWAY_BASE'];
  try {
    bare = await startChild<{ origin: string }>(file('bare-proxy.ts'), { args: [String(upstream.ready.port)] });
    server = await startChild<{ origin: string; key: string }>(file('server.ts'), {
      args: [String(upstream.ready.port)],
    });
    load = await startChild<{ pid: number }>(file('load.ts'));
    const direct: TargetSpec = {
      name: 'direct',
      origin: `http://127.0.0.1:${upstream.ready.port}`,
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        model: 'fake',
        messages: MESSAGES,
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      }),
      expect: 'sse',
    };
    const gateway: TargetSpec = {
      name: 'gateway',
      origin: server.ready.origin,
      path: '/paas/v4/chat/completions',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${server.ready.key}`,
      },
      body: JSON.stringify({ model: 'gen-4.6', messages: MESSAGES, max_tokens: 64, stream: true }),
      expect: 'sse',
    };
    const bareTarget: TargetSpec = { ...direct, name: 'bare', origin: bare.ready.origin };
    await load.call('target', direct);
    await load.call('target', bareTarget);
    if (baseTree) {
      base = await startChild<{ origin: string; key: string }>(path.resolve(baseTree, 'bench/gateway/server.ts'), {
        args: [String(upstream.ready.port)],
      });
      await load.call('target', {
        ...gateway,
        name: 'base',
        origin: base.ready.origin,
        headers: { ...gateway.headers, authorization: `Bearer ${base.ready.key}` },
      });
    }
    await load.call('target', gateway);
    const l = load;
    const s = server;
    const b = bare;
    const targets = base ? ['direct', 'bare', 'gateway', 'base'] : ['direct', 'bare', 'gateway'];
    const baseProc = base;
    const { seq, conc } = loadPhases(l, CONCURRENCY, PHASE_DEADLINE_MS);
    /** Runs `phase` and returns its result with the CPU the given process spent meanwhile. */
    const withCpu = async <T>(proc: Remote<unknown>, phase: () => Promise<T>): Promise<[T, number]> => {
      const before = await proc.call<Cpu>('cpu');
      const result = await phase();
      const after = await proc.call<Cpu>('cpu');
      return [result, cpuMicros(before, after)];
    };

    // Warm-up: JIT, connections, SQLite page cache on both paths.
    for (const target of targets) {
      await seq(target, WARM_SEQ);
      await conc(target, WARM_CONC);
    }
    if (process.env['BENCH_STAGES'] === '1') await s.call('resetStages');
    if (profileFile) await s.call('profileStart');

    const seqTimes: Record<string, number[]> = { direct: [], bare: [], gateway: [], base: [] };
    const rates: Record<string, number[]> = { direct: [], bare: [], gateway: [], base: [] };
    const baseCpuConc: number[] = [];
    const serverCpuSeq: number[] = [];
    const serverCpuConc: number[] = [];
    const upstreamCpuConc: number[] = [];
    const bareCpuConc: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Rotate which target goes first.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const target of order) {
        const proc = target === 'gateway' ? s : target === 'bare' ? b : target === 'base' ? baseProc! : upstream;
        const [times, seqCpu] = await withCpu(proc, () => seq(target, SEQ_PER_ROUND));
        seqTimes[target]!.push(...times);
        const [result, concCpu] = await withCpu(proc, () => conc(target, CONC_PER_ROUND));
        rates[target]!.push(result.rate);
        if (target === 'gateway') {
          serverCpuSeq.push(seqCpu / times.length);
          serverCpuConc.push(concCpu / result.done);
        } else if (target === 'bare') bareCpuConc.push(concCpu / result.done);
        else if (target === 'base') baseCpuConc.push(concCpu / result.done);
        else upstreamCpuConc.push(concCpu / result.done);
      }
    }
    const stages = process.env['BENCH_STAGES'] === '1' ? await s.call<Stages>('stages') : undefined;
    if (profileFile) {
      await s.call('profileStop', { file: profileFile });
      process.stderr.write(
        `gateway bench: server profile of ${ROUNDS * (SEQ_PER_ROUND + CONC_PER_ROUND)} requests in ${profileFile}\n`,
      );
    }

    const d = seqTimes['direct']!;
    const g = seqTimes['gateway']!;
    const bt = seqTimes['bare']!;
    const dRate = median(rates['direct']!);
    const gRate = median(rates['gateway']!);
    const bRate = median(rates['bare']!);
    process.stderr.write(
      [
        `gateway bench: c=1 median direct ${median(d).toFixed(3)} ms, bare proxy ${median(bt).toFixed(3)} ms, gateway ${median(g).toFixed(3)} ms`,
        `  p99 direct ${quantile(d, 0.99).toFixed(3)} ms, bare proxy ${quantile(bt, 0.99).toFixed(3)} ms, gateway ${quantile(g, 0.99).toFixed(3)} ms`,
        `  c=${CONCURRENCY} req/s per round: direct ${range(rates['direct']!)}, bare proxy ${range(rates['bare']!)}, gateway ${range(rates['gateway']!)}`,
        `  server CPU µs/request per round: c=1 ${range(serverCpuSeq)}, c=${CONCURRENCY} ${range(serverCpuConc)}; bare proxy ${range(bareCpuConc)}; fake upstream ${range(upstreamCpuConc)}`,
        ...(base
          ? [
              `  base tree ${baseTree}: c=1 median ${median(seqTimes['base']!).toFixed(3)} ms (this tree ${median(g).toFixed(3)} ms); c=${CONCURRENCY} req/s median ${median(rates['base']!).toFixed(0)} (this tree ${gRate.toFixed(0)}); server CPU µs/request at c=${CONCURRENCY} median ${median(baseCpuConc).toFixed(0)} (this tree ${median(serverCpuConc).toFixed(0)})`,
            ]
          : []),
        '',
      ].join('\n'),
    );
    if (stages) {
      for (const [label, st] of Object.entries(stages)) {
        const perCall = (us: number) => (us / Math.max(1, st.calls)).toFixed(1);
        const perRequest = (us: number) => (us / (g.length + CONC_PER_ROUND * ROUNDS)).toFixed(1);
        process.stderr.write(
          `  stage ${label}: ${st.calls} calls, ${perCall(st.cpuMicros)} µs CPU/call (${perCall(st.micros)} wall), ${perRequest(st.cpuMicros)} µs CPU/request\n`,
        );
      }
    }
    return [
      benchRow(
        'gateway: median latency of a streamed chat (12 chunks + [DONE]), 1 at a time, through the server vs direct to the same upstream',
        median(g),
        'ms',
        median(d),
      ),
      addedLatencyRow(
        'gateway: ADDED median latency at concurrency 1 (baseline column = 1 ms target; ratio < 1 passes)',
        median(g),
        median(d),
      ),
      addedLatencyRow(
        'gateway: floor — ADDED median latency at concurrency 1 of a bare pass-through proxy (node:http + undici, bytes piped)',
        median(bt),
        median(d),
      ),
      benchRow('gateway: p99 latency at concurrency 1, through vs direct', quantile(g, 0.99), 'ms', quantile(d, 0.99)),
      benchRow(
        `gateway: throughput at ${CONCURRENCY} concurrent streams, through vs direct, upstream that costs nothing (worst case; the ≥ 0.5 target is measured against a real upstream in gateway-llama)`,
        gRate,
        'req/s',
        dRate,
        0,
      ),
      benchRow(
        `gateway: floor — bare pass-through proxy's throughput at ${CONCURRENCY} concurrent streams vs direct`,
        bRate,
        'req/s',
        dRate,
        0,
      ),
      benchRow(
        `gateway: server process CPU per streamed request at ${CONCURRENCY} concurrent, vs the bare pass-through proxy's`,
        median(serverCpuConc),
        'µs',
        median(bareCpuConc),
        0,
      ),
      benchRow(
        `gateway: server process CPU per streamed request at ${CONCURRENCY} concurrent, vs the fake upstream's (node:http writing the same stream)`,
        median(serverCpuConc),
        'µs',
        median(upstreamCpuConc),
        0,
      ),
      benchRow(
        'gateway: server process CPU per streamed request at concurrency 1, vs the same at 64',
        median(serverCpuSeq),
        'µs',
        median(serverCpuConc),
        0,
      ),
    ];
  } finally {
    await Promise.allSettled([load?.stop(), server?.stop(), bare?.stop(), base?.stop()]);
    await upstream.stop();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
  process.exit(0);
}
