/**
 * Load generator for the gateway and tokenizer benchmarks, in a process of its own so that its
 * CPU time is nobody else's: undici Pools with keep-alive, one per target. `seq` sends requests one
 * at a time and returns each one's latency (first byte sent to last byte read); `conc` keeps N
 * requests in flight until a total is done. Every phase is bounded by count and by a deadline.
 */
import { Pool } from 'undici';
import { serveParent } from './ipc.js';

export interface TargetSpec {
  name: string;
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  /** `sse`: the body must end with `data: [DONE]`; `json`: status 200 is enough. */
  expect: 'sse' | 'json';
}

export interface SeqArgs {
  target: string;
  count: number;
  deadlineMs: number;
}
export interface ConcArgs extends SeqArgs {
  concurrency: number;
}
export interface ConcResult {
  done: number;
  /** Each request's latency, ms (at this concurrency: queueing included). */
  latencies: number[];
  seconds: number;
  rate: number;
  /** Load generator CPU (user + system) per request, µs. */
  clientCpuMicros: number;
}

const DONE = 'data: [DONE]';
const targets = new Map<string, { spec: TargetSpec; pool: Pool }>();

/** One request; resolves with the time its first body byte arrived (performance.now()). */
async function once(name: string): Promise<number> {
  const target = targets.get(name);
  if (!target) throw new Error(`unknown target ${name}`);
  const { spec, pool } = target;
  const response = await pool.request({ path: spec.path, method: 'POST', headers: spec.headers, body: spec.body });
  let tail = '';
  let firstByte = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    if (firstByte === 0) firstByte = performance.now();
    tail = (tail + chunk.toString('latin1')).slice(-64);
  }
  if (response.statusCode !== 200) throw new Error(`${name}: HTTP ${response.statusCode}: ${tail}`);
  if (spec.expect === 'sse' && !tail.trimEnd().endsWith(DONE)) throw new Error(`${name}: stream ended without [DONE]`);
  return firstByte;
}

export interface SeqTimes {
  /** First byte of the request sent to last byte of the reply read, ms. */
  times: number[];
  /** First byte of the request sent to first byte of the reply's body read, ms. */
  firstBytes: number[];
}

async function seqTimes({ target, count, deadlineMs }: SeqArgs): Promise<SeqTimes> {
  const deadline = performance.now() + deadlineMs;
  const times: number[] = [];
  const firstBytes: number[] = [];
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const start = performance.now();
    const firstByte = await once(target);
    times.push(performance.now() - start);
    firstBytes.push(firstByte - start);
  }
  return { times, firstBytes };
}

const seq = async (args: SeqArgs): Promise<number[]> => (await seqTimes(args)).times;

async function conc({ target, count, concurrency, deadlineMs }: ConcArgs): Promise<ConcResult> {
  const deadline = performance.now() + deadlineMs;
  let started = 0;
  let done = 0;
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count && performance.now() < deadline) {
        started++;
        const sent = performance.now();
        await once(target);
        latencies.push(performance.now() - sent);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    done,
    latencies,
    seconds,
    rate: done / seconds,
    clientCpuMicros: (used.user + used.system) / Math.max(1, done),
  };
}

serveParent(
  {
    target: (spec: TargetSpec) => {
      targets.set(spec.name, {
        spec,
        pool: new Pool(spec.origin, { connections: 256, pipelining: 1, keepAliveTimeout: 60_000 }),
      });
      return null;
    },
    drop: async (name: string) => {
      await targets.get(name)?.pool.close();
      targets.delete(name);
      return null;
    },
    seq,
    seqTimes,
    conc,
    stop: async () => {
      await Promise.all([...targets.values()].map((t) => t.pool.close()));
      return null;
    },
  },
  { pid: process.pid },
);
setTimeout(() => process.exit(3), 20 * 60_000).unref();
