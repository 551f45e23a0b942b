import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { hugeHtml, longPdf } from '../../../test/services/reader/heavy-pages.js';
import { type Remote, startChild } from '../../gateway/ipc.js';
import { type BenchRow, benchRow } from '../../types.js';
import type { BenchPage } from '../dataset.js';

/**
 * The reader through the HTTP API (our whole server, its extraction threads) against Readability on
 * linkedom called in-process on the one thread of a bare HTTP server, on the same pages served by a
 * local page server, in the same run: pages per second at 1, 2 and 4 requests in flight (median of
 * 3 passes, the two servers alternating) and the server's CPU time per page (all its threads; on
 * a loaded machine far steadier than pages/s), the server's RSS at start and after the run, and `/health`
 * latency on each server while it reads a huge page (and, ours, a 500-page PDF).
 */

const OURS = fileURLToPath(new URL('./ours.ts', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));
const PASSES = 3;
const IN_FLIGHT = [1, 2, 4];

interface Target {
  name: 'ours' | 'baseline';
  remote: Remote<{ origin: string; key?: string }>;
  /** One page read; false when the server did not answer 200. */
  read(url: string): Promise<boolean>;
}

const client = new Agent({ connections: 16, keepAliveTimeout: 10_000 });

function targetOf(name: Target['name'], remote: Remote<{ origin: string; key?: string }>): Target {
  const { origin, key } = remote.ready;
  const path = name === 'ours' ? '/paas/v4/reader' : '/read';
  return {
    name,
    remote,
    async read(url) {
      const response = await request(`${origin}${path}`, {
        method: 'POST',
        dispatcher: client,
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify({ url }),
      });
      await response.body.text();
      return response.statusCode === 200;
    },
  };
}

async function startPageServer(pages: BenchPage[]): Promise<{ origin: string; close(): Promise<void> }> {
  const bodies = new Map<string, [string, Buffer]>();
  for (const page of pages) bodies.set(`/p/${page.name}`, ['text/html; charset=utf-8', Buffer.from(page.html)]);
  bodies.set('/huge', ['text/html', Buffer.from(hugeHtml(1_000_000))]);
  bodies.set('/long.pdf', ['application/pdf', longPdf(500)]);
  const server = http.createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': body[0], 'content-length': body[1].length }).end(body[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Reads every URL once with `inFlight` requests at a time; pages per second, and failures. */
async function pass(target: Target, urls: string[], inFlight: number): Promise<{ rate: number; failed: number }> {
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < urls.length) {
        const url = urls[next++] as string;
        if (!(await target.read(url))) failed++;
      }
    }),
  );
  return { rate: urls.length / ((performance.now() - started) / 1000), failed };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};

/** `/health` round trips, one after another, until the reads finish. */
async function healthDuring(origin: string, reads: Promise<unknown>[]): Promise<number[]> {
  let done = false;
  const finished = Promise.allSettled(reads).then(() => {
    done = true;
  });
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await request(`${origin}/health`, { dispatcher: client });
    await response.body.text();
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await finished;
  return latencies;
}

export async function runHttp(pages: BenchPage[]): Promise<BenchRow[]> {
  const site = await startPageServer(pages);
  const ours = targetOf('ours', await startChild(OURS));
  const baseline = targetOf('baseline', await startChild(BASELINE));
  try {
    const rssStart = await ours.remote.call<number>('rss');
    const urls = pages.map((page) => `${site.origin}/p/${page.name}`);
    // Warm-up: threads started, code compiled, connections open, on both sides.
    for (const target of [ours, baseline]) await pass(target, urls, 2);
    const rssWarm = await ours.remote.call<number>('rss');
    const rows: BenchRow[] = [];
    let failed = 0;
    for (const inFlight of IN_FLIGHT) {
      const rates: Record<Target['name'], number[]> = { ours: [], baseline: [] };
      const cpu: Record<Target['name'], number[]> = { ours: [], baseline: [] };
      for (let round = 0; round < PASSES; round++) {
        for (const target of round % 2 === 0 ? [ours, baseline] : [baseline, ours]) {
          const cpuBefore = await target.remote.call<number>('cpu');
          const result = await pass(target, urls, inFlight);
          cpu[target.name].push((await target.remote.call<number>('cpu')) - cpuBefore);
          rates[target.name].push(result.rate);
          failed += result.failed;
        }
      }
      const perPage = (name: Target['name']) => median(cpu[name]) / 1000 / urls.length;
      rows.push(
        benchRow(
          `reader through the API, ${inFlight} in flight, vs Readability+linkedom in-process (1 thread, bare HTTP)`,
          median(rates.ours),
          'pages/s',
          median(rates.baseline),
          1,
        ),
        benchRow(
          `reader server CPU per page (all threads), ${inFlight} in flight, vs the baseline's (less noise than pages/s under load)`,
          perPage('ours'),
          'ms',
          perPage('baseline'),
          1,
        ),
      );
    }
    const rssEnd = await ours.remote.call<number>('rss');
    const mb = (bytes: number) => bytes / (1024 * 1024);
    rows.push(
      benchRow('reader server RSS after the run vs at start (before any read)', mb(rssEnd), 'MB', mb(rssStart), 0),
    );
    rows.push(benchRow('reader server RSS after the run vs after warm-up', mb(rssEnd), 'MB', mb(rssWarm), 0));
    if (failed > 0) rows.push(benchRow('reader calls that failed during the speed passes', failed, 'calls', 0, 0));

    const oursHealth = await healthDuring(ours.remote.ready.origin, [
      ours.read(`${site.origin}/huge`),
      ours.read(`${site.origin}/long.pdf`),
    ]);
    const baseHealth = await healthDuring(baseline.remote.ready.origin, [baseline.read(`${site.origin}/huge`)]);
    rows.push(
      benchRow(
        `/health p50 while a 1 MB page + a 500-page PDF are read (${oursHealth.length} probes) vs baseline reading the page`,
        quantile(oursHealth, 0.5),
        'ms',
        quantile(baseHealth, 0.5),
        1,
      ),
      benchRow(
        `/health max while a 1 MB page + a 500-page PDF are read vs baseline reading the page (${baseHealth.length} probes)`,
        Math.max(...oursHealth),
        'ms',
        Math.max(...baseHealth),
        1,
      ),
    );
    return rows;
  } finally {
    await Promise.allSettled([ours.remote.stop(), baseline.remote.stop()]);
    await site.close();
    await client.close();
  }
}
