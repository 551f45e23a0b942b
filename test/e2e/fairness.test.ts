import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LlamaCppEngine } from '../../src/engines/chat/llama-cpp/engine.js';
import { deployment, type E2eServer, startServer } from './support.js';

const CHAT = '/paas/v4/chat/completions';
/** The random model: decoded greedily it never ends before max_tokens. Two sequences, a long line. */
const MODEL = 'gen-4.5-air';
const FLOOD = 12;

let server: E2eServer;
beforeAll(async () => {
  server = await startServer((paths) => ({ [MODEL]: deployment(paths.random, { parallel: 2, queue: 32 }) }));
});
afterAll(async () => {
  await server?.close();
});

const call = (key: string, maxTokens: number) =>
  server.t.app.inject({
    method: 'POST',
    url: CHAT,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    payload: JSON.stringify({
      model: MODEL,
      messages: [{ role: 'user', content: 'Go on.' }],
      max_tokens: maxTokens,
      do_sample: false,
    }),
  });

describe('fair shares between keys on the embedded engine (parallel: 2)', () => {
  it('a lone key’s short call waits for one of the flooding key’s calls, not for its whole flood', async () => {
    const engine = (await server.t.services.chat!.engineFor(MODEL)) as LlamaCppEngine;
    const flooder = await server.t.newKey({ limits: { concurrent: 0, requests_per_minute: 0, windows: [] } });
    const lone = server.t.key;
    const finished: string[] = [];
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      call(flooder, 120).then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        finished.push(`flood ${i}`);
      }),
    );
    // Both sequences busy with the flood, the rest of it waiting, before the lone key calls.
    await vi.waitFor(() => expect(engine.load).toEqual({ available: 0, waiting: FLOOD - 2 }), {
      timeout: 20_000,
      interval: 2,
    });
    expect(finished).toEqual([]);
    const alone = call(lone, 8).then((res) => {
      expect(res.statusCode, res.body).toBe(200);
      finished.push('lone');
    });
    await Promise.all([...flood, alone]);
    // First come, first served would make it the 13th to finish; fair shares take it at the first
    // free sequence, after at most the two calls already generating.
    expect(finished.indexOf('lone')).toBeLessThanOrEqual(2);
    expect(engine.load).toEqual({ available: 2, waiting: 0 });
  });
});
