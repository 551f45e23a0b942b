/**
 * Fair shares between keys: the latency of one short call from a lone key while
 * another key floods the same shared resource, through the whole server over real sockets:
 *
 * - the embedded engine (random test GGUF, one thread, `parallel: 2`): a flood of FLOOD calls of
 *   FLOOD_TOKENS tokens, the lone call LONE_TOKENS tokens;
 * - an upstream deployment capped at `max_concurrent: 2` (a local stand-in that streams each reply
 *   in UPSTREAM_CHUNKS × UPSTREAM_DELAY_MS, whatever the request).
 *
 * Three figures per resource, each a median of ROUNDS, the scenarios interleaved so that machine
 * noise hits all alike: the lone call with nothing else running (the baseline), during the flood
 * from its own key (fair queue: it waits for one turn), and during the flood from the flooding key
 * itself, i.e. queued in the flood's own lane behind the whole burst: what first come, first served
 * gave every key before the fair queue (the FIFO baseline, same code, same run).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { writeTestModels } from '../src/test-models/write-test-models.js';
import { startSlowUpstream } from '../test/helpers/slow-chat-upstream.js';
import { startBenchApp } from './gateway/app.js';
import { median } from './gateway/stats.js';
import { type BenchRow, benchRow } from './types.js';

const ROUNDS = 5;
const FLOOD = 16;
const FLOOD_TOKENS = 120;
const LONE_TOKENS = 8;
const UPSTREAM_CHUNKS = 10;
const UPSTREAM_DELAY_MS = 20;
const EMBEDDED = 'gen-4.5-air';
const UPSTREAM = 'gen-4.6';

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-fairness-'));
  const upstream = await startSlowUpstream({ chunks: UPSTREAM_CHUNKS, delayMs: UPSTREAM_DELAY_MS });
  try {
    const { random } = await writeTestModels(dir);
    const bench = await startBenchApp({
      [EMBEDDED]: {
        deployments: [{ engine: 'llama-cpp', model: random, threads: 1, context_size: 1024, parallel: 2, queue: 64 }],
      },
      [UPSTREAM]: {
        deployments: [
          {
            engine: 'openai-compatible',
            base_url: upstream.baseUrl,
            model: 'stand-in',
            max_concurrent: 2,
            max_waiting: 64,
          },
        ],
      },
    });
    try {
      // The flooding key is the bench's own (no limits); the lone key has the shipped defaults.
      const flooder = bench.key;
      const { key: lone } = await bench.services.keys.create({ name: 'lone' });
      const call = async (model: string, key: string, maxTokens: number) => {
        const res = await request(`${bench.origin}/paas/v4/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: JSON.stringify({
            model,
            messages: [{ role: 'user', content: 'Go on.' }],
            max_tokens: maxTokens,
            do_sample: false,
          }),
        });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`${model}: ${res.statusCode} ${text}`);
      };
      const waiting = async (model: string) => (await bench.services.chat!.engineFor(model)).stats?.().waiting ?? 0;
      const timed = async (fn: () => Promise<void>) => {
        const start = performance.now();
        await fn();
        return performance.now() - start;
      };
      /** The lone call's latency from `key`, during a flood when asked (started once it waits in line). */
      const lonely = async (model: string, key: string, flood: boolean) => {
        const floodTokens = model === EMBEDDED ? FLOOD_TOKENS : 1;
        const calls = flood ? Array.from({ length: FLOOD }, () => call(model, flooder, floodTokens)) : [];
        while (flood && (await waiting(model)) < FLOOD - 2) await new Promise((resolve) => setTimeout(resolve, 1));
        const latency = await timed(() => call(model, key, LONE_TOKENS));
        await Promise.all(calls);
        return latency;
      };

      const rows: BenchRow[] = [];
      for (const [model, label] of [
        [EMBEDDED, `embedded engine, parallel 2, ${FLOOD} calls of ${FLOOD_TOKENS} tokens`],
        [UPSTREAM, `upstream with max_concurrent 2, ${FLOOD} calls of ${UPSTREAM_CHUNKS * UPSTREAM_DELAY_MS} ms`],
      ] as const) {
        await lonely(model, lone, false);
        const alone: number[] = [];
        const fair: number[] = [];
        const fifo: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          alone.push(await lonely(model, lone, false));
          fair.push(await lonely(model, lone, true));
          fifo.push(await lonely(model, flooder, true));
        }
        const [a, f, q] = [median(alone), median(fair), median(fifo)];
        rows.push(
          benchRow(
            `fairness, ${label}: a lone key's ${LONE_TOKENS}-token call during the flood vs alone`,
            f,
            'ms',
            a,
            1,
          ),
          benchRow(`fairness, ${label}: the same call queued FIFO behind the flood vs alone`, q, 'ms', a, 1),
          benchRow(`fairness, ${label}: fair queue vs FIFO`, f, 'ms', q, 1),
        );
      }
      return rows;
    } finally {
      await bench.close();
    }
  } finally {
    await upstream.close();
    await rm(dir, { recursive: true, force: true });
  }
}
