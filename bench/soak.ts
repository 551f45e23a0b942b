/**
 * Soak: mixed traffic (chat streams on the programmed test model, tokenizer, web
 * search, reader on a local page, bad requests) for N minutes against one `gen-platform serve`
 * process (SQLite, in-process limiter) and then two (one PostgreSQL schema + Redis, behind a
 * loopback round-robin proxy). Reports 5xx answers (must be 0), answers that were not what the
 * request expects, latency percentiles per kind (two processes against one), and each process's
 * RSS (sampled each second) in the last fifth of the run against the first fifth after warm-up
 * (growth must stay under 5 %), and its V8 heap after a forced full collection (through the
 * inspector) at the end against after warm-up: the figure a leak raises.
 *
 * `BENCH_SOAK_MINUTES` (default 1) is the length of each of the two runs; the first 20 % of each is
 * warm-up. Servers are spawned from dist/ (built when stale); DATABASE_URL and REDIS_URL as in tests.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeTestModels } from '../src/test-models/write-test-models.js';
import { DATABASE_URL, freshSchema } from '../test/helpers/postgres.js';
import { freshPrefix, REDIS_URL } from '../test/helpers/redis.js';
import { ensureBuilt, type ServerProcess, startRoundRobin, startServer } from '../test/helpers/server-process.js';
import { heapAfterGcMb, inspectorUrl } from './soak/heap-after-gc.js';
import { type Kind, percentile, runTraffic, type TrafficResult } from './soak/traffic.js';
import { type BenchRow, benchRow } from './types.js';

const MINUTES = Number(process.env['BENCH_SOAK_MINUTES'] ?? '1');
const WORKERS = 6;
/** The inspector (loopback, free port) lets the soak force a full collection before reading the heap. */
const INSPECT = ['--inspect=127.0.0.1:0'];
const ADMIN = 'soak-admin-key-0123456789abcdef';
const KINDS: Kind[] = ['chat-stream', 'tokenizer', 'search', 'reader', 'bad'];

const ARTICLE = `<!doctype html><html><head><title>Soak page</title></head><body><article><h1>Soak page</h1>
${Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i + 1}: the servers under soak read this page again and again, and their memory must stay flat while they do.</p>`).join('\n')}
</article></body></html>`;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function startPage(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

interface Phase {
  label: string;
  traffic: TrafficResult;
  rss: { warm: number; end: number }[];
  heap: { warm: number; end: number }[];
}

/** First fifth against last fifth of a series of samples, each summarised by `pick`. */
function fifths(list: number[], pick: (xs: number[]) => number): { warm: number; end: number } {
  const fifth = Math.max(1, Math.floor(list.length / 5));
  return { warm: pick(list.slice(0, fifth)), end: pick(list.slice(-fifth)) };
}

async function soak(label: string, servers: ServerProcess[], origin: string, key: string, pageUrl: string) {
  const total = MINUTES * 60_000;
  const warm = await runTraffic({ origin, key, pageUrl, workers: WORKERS, durationMs: total * 0.2, seed: 1 });
  // RSS moves with every collection: sample it each second and compare the medians of the first
  // and the last fifth of the measured run. The heap is read after a forced full collection.
  const heapWarm = await Promise.all(servers.map((s) => heapAfterGcMb(inspectorUrl(s.output()))));
  const rssSamples: number[][] = servers.map(() => []);
  const sampler = setInterval(() => {
    for (const [i, s] of servers.entries()) rssSamples[i]!.push(rssMb(s.child.pid!));
  }, 1000);
  const traffic = await runTraffic({ origin, key, pageUrl, workers: WORKERS, durationMs: total * 0.8, seed: 2 });
  clearInterval(sampler);
  const heapEnd = await Promise.all(servers.map((s) => heapAfterGcMb(inspectorUrl(s.output()))));
  const rss = rssSamples.map((list) => fifths(list, (xs) => percentile(xs, 0.5)));
  const heap = heapWarm.map((warm, i) => ({ warm, end: heapEnd[i]! }));
  // The warm-up's errors count too: a 5xx is a 5xx whenever it comes.
  for (const [status, n] of warm.statuses) traffic.statuses.set(status, (traffic.statuses.get(status) ?? 0) + n);
  traffic.unexpected.push(...warm.unexpected);
  traffic.total += warm.total;
  return { label, traffic, rss, heap } satisfies Phase;
}

async function newKey(base: string): Promise<string> {
  const res = await fetch(`${base}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    // Limits that are never reached but are counted on every request (in Redis with two processes).
    body: JSON.stringify({ name: 'soak', limits: { concurrent: 64, requests_per_minute: 1_000_000, windows: [] } }),
  });
  if (res.status !== 200) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { key: string }).key;
}

function rows(one: Phase, two: Phase): BenchRow[] {
  const out: BenchRow[] = [];
  for (const p of [one, two]) {
    const fiveXx = [...p.traffic.statuses].filter(([s]) => s >= 500 || s === 0).reduce((n, [, c]) => n + c, 0);
    out.push(benchRow(`${p.label}: 5xx or failed answers (of all requests)`, fiveXx, 'count', p.traffic.total, 0));
    out.push(
      benchRow(
        `${p.label}: unexpected answers (of all requests)`,
        p.traffic.unexpected.length,
        'count',
        p.traffic.total,
        0,
      ),
    );
    for (const [i, h] of p.heap.entries()) {
      out.push(
        benchRow(
          `${p.label}: V8 heap of process ${i + 1} after a full GC, end vs after warm-up`,
          h.end,
          'MB',
          h.warm,
          1,
        ),
      );
    }
    for (const [i, r] of p.rss.entries()) {
      out.push(
        benchRow(
          `${p.label}: RSS of process ${i + 1}, last fifth vs first fifth after warm-up (medians)`,
          r.end,
          'MB',
          r.warm,
          1,
        ),
      );
    }
  }
  for (const kind of KINDS) {
    for (const q of [0.5, 0.99]) {
      const name = `p${q * 100} ${kind}: 2 processes (PostgreSQL + Redis) vs 1 (SQLite)`;
      out.push(
        benchRow(name, percentile(two.traffic.latencies[kind], q), 'ms', percentile(one.traffic.latencies[kind], q), 1),
      );
    }
  }
  return out;
}

function report(p: Phase): void {
  const statuses = [...p.traffic.statuses].map(([s, n]) => `${s}×${n}`).join(' ');
  process.stderr.write(`soak ${p.label}: ${p.traffic.total} requests (${statuses})\n`);
  for (const u of p.traffic.unexpected.slice(0, 5))
    process.stderr.write(`  unexpected ${u.kind} ${u.status}: ${u.body}\n`);
}

export async function run(): Promise<BenchRow[]> {
  ensureBuilt();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-soak-'));
  const page = await startPage();
  const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/article`;
  const { programmed } = await writeTestModels(dir);
  const common = {
    embedded: { default_model: '' },
    models: {
      'gen-4.6': {
        deployments: [{ engine: 'llama-cpp', model: programmed, threads: 1, context_size: 2048, parallel: 2 }],
      },
    },
    reader: { allow_hosts: ['127.0.0.1'] },
    security: { admin_key: ADMIN },
    log: { level: 'warn' },
    // On, so that the soak also runs the metrics hooks.
    metrics: { enabled: true },
  };
  const servers: ServerProcess[] = [];
  const schema = await freshSchema();
  let proxy: Awaited<ReturnType<typeof startRoundRobin>> | undefined;
  try {
    const oneFile = path.join(dir, 'one.json');
    writeFileSync(oneFile, JSON.stringify(common));
    const single = await startServer(oneFile, mkdtempSync(path.join(dir, 'one-')), INSPECT);
    servers.push(single);
    const one = await soak('1 process', [single], single.base, await newKey(single.base), pageUrl);
    report(one);
    single.child.kill('SIGTERM');
    await single.exited;

    const twoFile = path.join(dir, 'two.json');
    writeFileSync(
      twoFile,
      JSON.stringify({
        ...common,
        database: { url: DATABASE_URL, schema: schema.schema },
        redis: { url: REDIS_URL, prefix: freshPrefix() },
      }),
    );
    const a = await startServer(twoFile, mkdtempSync(path.join(dir, 'two-')), INSPECT);
    const b = await startServer(twoFile, mkdtempSync(path.join(dir, 'two-')), INSPECT);
    servers.push(a, b);
    proxy = await startRoundRobin(() => [a.base, b.base]);
    const two = await soak('2 processes', [a, b], proxy.base, await newKey(a.base), pageUrl);
    report(two);
    return rows(one, two);
  } finally {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await proxy?.close();
    page.close();
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
