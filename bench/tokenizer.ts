/**
 * Tokenizer throughput: `POST /paas/v4/tokenizer` through our whole server
 * (socket, auth, limiter, validation, usage record) on the embedded engine with the programmed test
 * model, against calling that same engine's `countTokens` directly on the same messages. The server
 * runs in this process, so both sides count with the very same loaded model; the HTTP load comes
 * from a child process (gateway/load.ts) with keep-alive connections.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { functionTools, mapMessages } from '../src/services/chat/map-request.js';
import { writeTestModels } from '../src/test-models/write-test-models.js';
import { startBenchApp } from './gateway/app.js';
import { type Remote, startChild } from './gateway/ipc.js';
import type { ConcResult, TargetSpec } from './gateway/load.js';
import { type BenchRow, benchRow } from './types.js';

const PER_ROUND = 500;
const ROUNDS = 5;
const CONCURRENCY = 8;
const DEADLINE_MS = 60_000;

const BODY = {
  model: 'gen-4.6',
  messages: [
    { role: 'system', content: 'You are a careful assistant. Answer briefly and cite the tool results you use.' },
    { role: 'user', content: 'What is the weather in Lisbon today, and should I take an umbrella to the harbour?' },
    { role: 'assistant', content: 'Let me check the forecast for Lisbon first.' },
    {
      role: 'user',
      content:
        'Also tell me about the tram 28 route: where it starts, where it ends, and whether it is crowded in the morning. Keep it under five sentences.',
    },
  ],
  tools: [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    },
  ],
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-tokenizer-'));
  let load: Remote<{ pid: number }> | undefined;
  let bench: Awaited<ReturnType<typeof startBenchApp>> | undefined;
  try {
    const { programmed } = await writeTestModels(dir);
    bench = await startBenchApp({
      'gen-4.6': {
        deployments: [{ engine: 'llama-cpp', model: programmed, threads: 1, context_size: 2048, parallel: 1 }],
      },
    });
    const engine = await bench.services.engines?.get('gen-4.6');
    if (!engine) throw new Error('gen-4.6 has no engine');
    const messages = mapMessages(BODY.messages as Parameters<typeof mapMessages>[0], false, engine.capabilities.vision);
    const tools = functionTools(BODY.tools as Parameters<typeof functionTools>[0]);

    load = await startChild<{ pid: number }>(fileURLToPath(new URL('./gateway/load.ts', import.meta.url)));
    const target: TargetSpec = {
      name: 'tokenizer',
      origin: bench.origin,
      path: '/paas/v4/tokenizer',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bench.key}` },
      body: JSON.stringify(BODY),
      expect: 'json',
    };
    await load.call('target', target);
    const l = load;
    const viaHttp = () =>
      l.call<ConcResult>(
        'conc',
        { target: 'tokenizer', count: PER_ROUND, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS },
        DEADLINE_MS + 10_000,
      );
    let expected = 0;
    const direct = async () => {
      const deadline = performance.now() + DEADLINE_MS;
      const start = performance.now();
      let done = 0;
      for (; done < PER_ROUND && performance.now() < deadline; done++)
        expected = await engine.countTokens(messages, tools);
      return done / ((performance.now() - start) / 1000);
    };

    // Warm-up, and a check that both sides count the same.
    await direct();
    await viaHttp();
    const check = await fetch(`${bench.origin}/paas/v4/tokenizer`, {
      method: 'POST',
      headers: target.headers,
      body: target.body,
    });
    const counted = ((await check.json()) as { usage?: { prompt_tokens?: number } }).usage?.prompt_tokens;
    if (counted !== expected) throw new Error(`endpoint counted ${counted} tokens, countTokens ${expected}`);

    const ours: number[] = [];
    const theirs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ours.push((await viaHttp()).rate);
      theirs.push(await direct());
    }
    process.stderr.write(
      `tokenizer bench: ${expected} tokens per request; req/s per round: endpoint ${ours.map(Math.round).join(', ')}; countTokens ${theirs.map(Math.round).join(', ')}\n`,
    );
    return [
      benchRow(
        `tokenizer: POST /paas/v4/tokenizer throughput (embedded engine, programmed test model, ${expected}-token prompt with a tool, ${CONCURRENCY} concurrent) vs the engine's countTokens called directly`,
        median(ours),
        'req/s',
        median(theirs),
        0,
      ),
    ];
  } finally {
    await load?.stop();
    await bench?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.table(await run());
  process.exit(0);
}
