/**
 * Image generation, two figures:
 * 1. Sync added latency: `POST /paas/v4/images/generations` through the whole server (auth,
 *    validation, safety check, slot, engine call, base64 decode, PNG header check by sharp, file
 *    write, URL) against the same engine request made directly (POST + JSON parse + base64 decode).
 *    The engine answers a precomputed 1024x1024 PNG at once, so the difference is the platform's cost.
 * 2. Async throughput: tasks through the store-backed queue and worker pool, with an engine that
 *    takes ENGINE_MS per image and `images.concurrency` = WORKERS: tasks/s against the worker limit
 *    WORKERS / ENGINE_MS (the best any queue could do), measured from submission to the last SUCCESS.
 * Both run in this process (server, engine and client share it), on a shared machine: noisy.
 */
import { request } from 'undici';
import { startBenchApp } from './gateway/app.js';
import { median } from './gateway/stats.js';
import { startFakeEngine } from './images/fake-engine.js';
import { type BenchRow, benchRow } from './types.js';

const SIZE = '1024x1024';
const ROUNDS = 5;
const PER_ROUND = 40;
const WORKERS = 4;
const ENGINE_MS = 100;
const TASKS = 80;

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.body.json()) as Record<string, unknown>;
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${JSON.stringify(json)}`);
  return json;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export async function run(): Promise<BenchRow[]> {
  const engine = await startFakeEngine([SIZE]);
  const bench = await startBenchApp(
    { 'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: engine.url, model: 'fake' }] } },
    { images: { concurrency: WORKERS, poll_interval_ms: 200 } },
  );
  try {
    const auth = { authorization: `Bearer ${bench.key}` };
    const direct = async () => {
      const json = (await post(
        `${engine.url}/images/generations`,
        {},
        { model: 'fake', prompt: 'a fox', n: 1, size: SIZE, response_format: 'b64_json' },
      )) as {
        data: { b64_json: string }[];
      };
      Buffer.from(json.data[0]!.b64_json, 'base64');
    };
    const platform = () =>
      post(`${bench.origin}/paas/v4/images/generations`, auth, { model: 'gen-image', prompt: 'a fox', size: SIZE });
    for (let i = 0; i < 20; i++) {
      await direct();
      await platform();
    }
    const directMs: number[] = [];
    const platformMs: number[] = [];
    // Rounds alternate the targets so that drift on the shared machine lands on both.
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < PER_ROUND; i++) directMs.push(await timed(direct));
      for (let i = 0; i < PER_ROUND; i++) platformMs.push(await timed(platform));
    }
    const rows = [
      benchRow(
        `sync ${SIZE} median latency (ms): platform vs engine called directly`,
        median(platformMs),
        'ms',
        median(directMs),
        2,
      ),
      benchRow(
        `sync added latency (ms, platform − direct; baseline = direct)`,
        median(platformMs) - median(directMs),
        'ms',
        median(directMs),
        2,
      ),
    ];

    engine.delayMs = ENGINE_MS;
    const app = bench.services;
    const workers = app.config.images.concurrency;
    const start = performance.now();
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i++) {
      const handle = (await post(`${bench.origin}/paas/v4/async/images/generations`, auth, {
        model: 'gen-image',
        prompt: `fox ${i}`,
        size: SIZE,
      })) as { id: string };
      ids.push(handle.id);
    }
    for (const id of ids) {
      for (;;) {
        const task = await app.store.tasks.get(id);
        if (task?.status === 'SUCCESS') break;
        if (task?.status === 'FAIL') throw new Error(`task ${id} failed: ${task.error?.message}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const seconds = (performance.now() - start) / 1000;
    const limit = workers / (ENGINE_MS / 1000);
    rows.push(
      benchRow(
        `async tasks/s (${TASKS} tasks, ${workers} workers, engine ${ENGINE_MS} ms) vs worker limit`,
        TASKS / seconds,
        'tasks/s',
        limit,
        2,
      ),
    );
    return rows;
  } finally {
    await bench.close();
    await engine.close();
  }
}
