/**
 * Our server in a child process of its own for the gateway benchmarks: gen-4.6 on one
 * openai-compatible deployment pointing at the fake upstream (`argv[2]` = its port) or at any
 * OpenAI-style base URL (`argv[2..4]` = base URL, upstream model, key). Reports its
 * CPU time on request. With `BENCH_STAGES=1` it also wraps the services on the request path
 * (authentication, limiter, usage record, chat start) and reports the wall time spent in each.
 * `profileStart` / `profileStop {file}` record a V8 CPU profile of just the measured phase.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import net from 'node:net';
import { startBenchApp } from './app.js';
import { serveParent } from './ipc.js';

/** `server.ts <upstream port>` (the fake upstream) or `server.ts <base URL> <model> <key>`. */
const [target, upstreamModel = 'fake', upstreamKey] = process.argv.slice(2);
const baseUrl = /^\d+$/.test(target ?? '') ? `http://127.0.0.1:${target}/v1` : target;
if (!baseUrl?.startsWith('http://')) throw new Error('usage: server.ts <upstream port> | <base URL> <model> <key>');

/** `BENCH_EXPERIMENT=usage-fsync`: usage records flushed to the disk before each reply ends (`usage.journal_sync`). */
const usageFsync = (process.env['BENCH_EXPERIMENT'] ?? '').split(',').includes('usage-fsync');

/**
 * `BENCH_GATEWAY_PRICED=1`: gen-4.6 has token prices, so every call goes through the money path
 * (a reservation before the engine starts, the cost on the usage record, the ledger entry and
 * settlement in the record's transaction). The key is the admin's: its account gets a balance that
 * never runs out during a run.
 */
const priced = process.env['BENCH_GATEWAY_PRICED'] === '1';
const prices = {
  prices: { 'gen-4.6': { input_per_million: '2', cached_input_per_million: '0.5', output_per_million: '8' } },
};

const bench = await startBenchApp(
  {
    'gen-4.6': {
      deployments: [
        {
          engine: 'openai-compatible',
          base_url: baseUrl,
          model: upstreamModel,
          ...(upstreamKey ? { api_key: upstreamKey } : {}),
          max_context: 32768,
          max_output: 4096,
        },
      ],
    },
  },
  { ...(usageFsync ? { usage: { journal_sync: 'fsync' } } : {}), ...(priced ? prices : {}) },
);
if (priced) {
  await bench.services.store.money.move({
    accountId: 'admin',
    amount: 1_000_000_000 * 1_000_000,
    kind: 'credit',
    actor: 'system',
    note: 'benchmark',
    at: Date.now(),
    covered: false,
  });
}

/**
 * Per stage: calls, µs of wall time and µs of process CPU time (user + system, all threads) spent in
 * the synchronous part of the call — the work on these paths is synchronous underneath (SQLite,
 * hashing, socket syscalls). Wall time on a loaded machine includes being preempted; CPU does not.
 */
const stages = new Map<string, { calls: number; micros: number; cpuMicros: number }>();

function timeMethod<T extends object>(target: T, method: keyof T & string, label: string): void {
  const original = target[method];
  if (typeof original !== 'function') throw new Error(`${label}: not a method`);
  const fn = original as (...args: unknown[]) => unknown;
  const wrapped = function (this: unknown, ...args: unknown[]) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    const result = fn.apply(this, args);
    // Synchronous part only: the promise's own resolution is not this stage's work.
    const wall = performance.now() - start;
    const used = process.cpuUsage(cpu);
    const s = stages.get(label) ?? { calls: 0, micros: 0, cpuMicros: 0 };
    s.calls++;
    s.micros += wall * 1000;
    s.cpuMicros += used.user + used.system;
    stages.set(label, s);
    return result;
  };
  Object.defineProperty(target, method, { value: wrapped, configurable: true, writable: true });
}

if (process.env['BENCH_STAGES'] === '1') {
  const { services } = bench;
  timeMethod(services.keys, 'authenticate', 'keys.authenticate (sha256 + store.getKey)');
  timeMethod(services.store, 'getKey', 'store.getKey (SQLite SELECT)');
  timeMethod(services.limiter, 'admit', 'limiter.admit (windows + counters)');
  timeMethod(services.store, 'recordUsage', 'store.recordUsage (SQLite INSERT)');
  timeMethod(services.store, 'claimRequestId', 'store.claimRequestId');
  if (services.chat) timeMethod(services.chat, 'start', 'chat.start (catalogue, mapping, engine call object)');
  // Socket writes: the syscalls, and on loopback the kernel's TCP work for the receiving side too.
  timeMethod(net.Socket.prototype, '_writev' as keyof net.Socket & string, 'socket writev (all sockets)');
  timeMethod(net.Socket.prototype, '_write', 'socket write (all sockets)');
  timeMethod(http.ServerResponse.prototype, 'writeHead', 'ServerResponse.writeHead');
}

/**
 * What-if experiments for the profile report, patched onto the services of this child only:
 * `BENCH_EXPERIMENT=usage-batch,key-cache` (usage records queued and inserted every 50 ms in one
 * transaction; key rows cached in memory).
 */
const experiments = new Set((process.env['BENCH_EXPERIMENT'] ?? '').split(',').filter(Boolean));
if (experiments.has('usage-batch')) {
  const store = bench.services.store;
  const insert = store.recordUsage.bind(store);
  let queue: Parameters<typeof insert>[0][] = [];
  const flush = () => {
    const batch = queue;
    queue = [];
    // One SQLite transaction per batch would be the real change; here: the inserts back to back.
    for (const record of batch) void insert(record);
  };
  setInterval(flush, 50).unref();
  store.recordUsage = async (record) => {
    queue.push(record);
  };
}
if (experiments.has('key-cache')) {
  const store = bench.services.store;
  const getKey = store.getKey.bind(store);
  const cache = new Map<string, Awaited<ReturnType<typeof getKey>>>();
  store.getKey = async (id) => {
    if (cache.has(id)) return cache.get(id);
    const key = await getKey(id);
    cache.set(id, key);
    return key;
  };
}

let session: Session | undefined;

serveParent(
  {
    profileStart: async () => {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      return null;
    },
    profileStop: async ({ file }: { file: string }) => {
      if (!session) throw new Error('no profile running');
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      session = undefined;
      return file;
    },
    cpu: () => process.cpuUsage(),
    stages: () => Object.fromEntries(stages),
    resetStages: () => {
      stages.clear();
      return null;
    },
    memory: () => process.memoryUsage(),
    stop: async () => {
      await bench.close();
      return null;
    },
  },
  { port: Number(new URL(bench.origin).port), origin: bench.origin, key: bench.key },
);
// Stops by itself after 20 minutes whatever happens.
setTimeout(() => process.exit(3), 20 * 60_000).unref();
