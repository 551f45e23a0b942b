import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine, PromptProgress } from '../../../src/engines/chat/types.js';
import { chatRequest, collect, collectUntilError, engineFor } from './helpers.js';
import { json, ReplayServer, type Reply, sse } from './replay-server.js';

/**
 * The engine says when the upstream has taken the prompt (its 2xx reply began), so a call cut short
 * before the first part is billed it (services/chat/metered-parts.ts); a refusal says nothing.
 */

let reply: Reply;
let server: ReplayServer;
let engine: ChatEngine;

beforeAll(async () => {
  server = await ReplayServer.start(() => reply);
  engine = engineFor(server.url);
});
afterAll(async () => {
  await engine.close();
  await server.close();
});

function generate(stream: boolean) {
  const reports: PromptProgress[] = [];
  const request = chatRequest({ stream, onPrompt: (progress) => reports.push(progress) });
  return { parts: engine.generate(request, new AbortController().signal), reports };
}

describe('the prompt taken upstream', () => {
  it('a streamed reply: reported once, before its parts, with no count (the server counts it)', async () => {
    reply = sse('vllm-reasoning.sse');
    const { parts, reports } = generate(true);
    const iterator = parts[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    expect(reports).toEqual([{}]);
    await collect({ [Symbol.asyncIterator]: () => iterator });
    expect(reports).toEqual([{}]);
  });

  it('a stalled stream: reported though no part has come', async () => {
    reply = { contentType: 'text/event-stream', pieces: [], hang: true };
    const client = new AbortController();
    const reports: PromptProgress[] = [];
    const request = chatRequest({ onPrompt: (progress) => reports.push(progress) });
    const iterator = engine.generate(request, client.signal)[Symbol.asyncIterator]();
    const pending = iterator.next().catch(() => undefined);
    await expect.poll(() => reports, { timeout: 5_000, interval: 10 }).toEqual([{}]);
    client.abort(new Error('client gone'));
    await iterator.return?.();
    await pending;
  });

  it('an error status (the upstream refused): not reported', async () => {
    reply = json(500, 'vllm-error-500.json');
    const { parts, reports } = generate(true);
    const { error } = await collectUntilError(parts);
    expect(error).toBeDefined();
    expect(reports).toEqual([]);
  });
});
