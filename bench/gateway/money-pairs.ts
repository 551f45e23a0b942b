/**
 * The money path's CPU per request against the same server without prices (the gateway bench's
 * `money` rows). Two sources of noise are larger than the effect on a shared 2-core machine, and
 * the measurement is built against both:
 * - the machine's load moves from second to second: the priced and the unpriced server are loaded
 *   at the same time (each with its own `concurrency` requests in flight, or each at c=1), pinned to
 *   the same CPU, so that whatever else runs lands on both alike;
 * - two processes of the same server differ by up to a third in CPU per request for their whole
 *   life (JIT and heap outcomes): every round starts a fresh pair, warms it and stops it, and the
 *   figure is the median of the rounds' own ratios, so that no one process decides it;
 * - a fresh process compiles for thousands of requests (the JIT's threads count in its CPU time),
 *   the priced one more and later: each pair is warmed well past that before it is measured.
 */
import { type Remote, startChild } from './ipc.js';
import type { TargetSpec } from './load.js';
import type { Phases } from './phases.js';
import { pinToCpu } from './pin.js';
import { type Cpu, cpuMicros } from './stats.js';

export interface MoneyPairOptions {
  /** gateway/server.ts */
  serverFile: string;
  upstreamPort: string;
  load: Remote<unknown>;
  phases: Phases;
  kinds: readonly string[];
  /** The load target of a kind for a server (name, origin and key filled in by the caller). */
  target(kind: string, name: string, server: { origin: string; key: string }): TargetSpec;
  rounds: number;
  pin: boolean;
  warm: { seq: number; conc: number };
  measure: { seq: number; conc: number };
}

/** Per kind: CPU µs per request of each round's priced and unpriced server, c=1 and c=N. */
export interface MoneyFigures {
  seq: { priced: number[]; unpriced: number[] };
  conc: { priced: number[]; unpriced: number[] };
}

type Server = Remote<{ origin: string; key: string }>;

const VARIANTS = ['unpriced', 'priced'] as const;

export async function measureMoneyPairs(o: MoneyPairOptions): Promise<Record<string, MoneyFigures>> {
  const figures: Record<string, MoneyFigures> = {};
  for (const kind of o.kinds) {
    figures[kind] = { seq: { priced: [], unpriced: [] }, conc: { priced: [], unpriced: [] } };
  }
  for (let round = 0; round < o.rounds; round++) {
    const pair = await Promise.all(
      VARIANTS.map((variant) =>
        startChild<{ origin: string; key: string }>(o.serverFile, {
          args: [o.upstreamPort],
          env: { ...process.env, BENCH_GATEWAY_PRICED: variant === 'priced' ? '1' : '0' },
        }),
      ),
    );
    const names: string[] = [];
    try {
      if (o.pin) for (const server of pair) pinToCpu(server.child.pid!, 1);
      for (const kind of o.kinds) {
        for (const [i, variant] of VARIANTS.entries()) {
          const name = `money-pair-${variant}-${kind}`;
          await o.load.call('target', o.target(kind, name, pair[i]!.ready));
          names.push(name);
        }
      }
      // Both at once, so that the machine's moment lands on both; the order of the kinds alternates.
      const kinds = round % 2 === 0 ? o.kinds : [...o.kinds].reverse();
      for (const kind of kinds) {
        const targets = VARIANTS.map((variant) => `money-pair-${variant}-${kind}`);
        await Promise.all(targets.map((t) => o.phases.seq(t, o.warm.seq)));
        await Promise.all(targets.map((t) => o.phases.conc(t, o.warm.conc)));
      }
      for (const kind of kinds) {
        const targets = VARIANTS.map((variant) => `money-pair-${variant}-${kind}`);
        const seq = await both(pair, () => Promise.all(targets.map((t) => o.phases.seq(t, o.measure.seq))));
        const conc = await both(pair, () => Promise.all(targets.map((t) => o.phases.conc(t, o.measure.conc))));
        const f = figures[kind]!;
        for (const [i, variant] of VARIANTS.entries()) {
          f.seq[variant].push(seq.cpu[i]! / seq.result[i]!.length);
          f.conc[variant].push(conc.cpu[i]! / conc.result[i]!.done);
        }
      }
    } finally {
      await Promise.allSettled(names.map((name) => o.load.call('drop', name)));
      await Promise.allSettled(pair.map((server) => server.stop()));
    }
  }
  return figures;
}

/** The phase's result and each server's CPU µs over it. */
async function both<T>(servers: Server[], phase: () => Promise<T[]>): Promise<{ result: T[]; cpu: number[] }> {
  const before = await Promise.all(servers.map((s) => s.call<Cpu>('cpu')));
  const result = await phase();
  const after = await Promise.all(servers.map((s) => s.call<Cpu>('cpu')));
  return { result, cpu: servers.map((_, i) => cpuMicros(before[i]!, after[i]!)) };
}
