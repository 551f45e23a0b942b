/** The load generator's two phases (gateway/load.ts), called over IPC with the benchmarks' limits. */
import type { Remote } from './ipc.js';
import type { ConcResult, SeqTimes } from './load.js';

export interface Phases {
  /** Requests one at a time: each one's latency, ms. */
  seq(target: string, count: number): Promise<number[]>;
  /** Requests one at a time: each one's latency and time to its first body byte, ms. */
  seqTimes(target: string, count: number): Promise<SeqTimes>;
  /** `concurrency` requests in flight until `count` are done. */
  conc(target: string, count: number): Promise<ConcResult>;
}

export function loadPhases(load: Remote<unknown>, concurrency: number, deadlineMs: number): Phases {
  const limit = deadlineMs + 10_000;
  return {
    seq: (target, count) => load.call<number[]>('seq', { target, count, deadlineMs }, limit),
    seqTimes: (target, count) => load.call<SeqTimes>('seqTimes', { target, count, deadlineMs }, limit),
    conc: (target, count) => load.call<ConcResult>('conc', { target, count, concurrency, deadlineMs }, limit),
  };
}

/** A row for added latency: through minus direct, against the 1 ms budget (ratio < 1 passes). */
export function addedLatencyRow(name: string, throughMs: number, directMs: number) {
  const added = Number((throughMs - directMs).toFixed(3));
  return { name, value: added, unit: 'ms', baseline: 1, ratio: added };
}
