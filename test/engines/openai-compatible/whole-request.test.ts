import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { expectWellFormed } from '../../contracts/chat-engine.contract.js';
import { chatRequest, collect, engineFor, textOf } from './helpers.js';
import { json, ReplayServer, sse } from './replay-server.js';

const signal = () => new AbortController().signal;

/** A client that takes its reply whole (`stream: false` on the request) gets it from one JSON reply upstream. */
describe('openai-compatible engine: a whole reply is asked for whole', () => {
  let server: ReplayServer;
  let engine: ChatEngine;

  beforeAll(async () => {
    server = await ReplayServer.start((request) =>
      request.body['stream'] === false ? json(200, 'vllm-whole.json') : sse('vllm-reasoning.sse'),
    );
    engine = engineFor(server.url);
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it('sends stream: false with accept application/json, and yields the same kind of parts', async () => {
    const parts = await collect(engine.generate(chatRequest({ stream: false }), signal()));
    const sent = server.requests.at(-1)!;
    expect(sent.headers['accept']).toBe('application/json');
    expect(sent.body['stream']).toBe(false);
    expect(sent.body).not.toHaveProperty('stream_options');
    expectWellFormed(parts);
    expect(textOf(parts, 'reasoning-delta')).toBe('The user asks for 2+2. That is 4.');
    expect(textOf(parts, 'text-delta')).toBe('2 + 2 = 4。');
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: 17, completionTokens: 23 },
    });
  });

  it('streams when the request says so or says nothing', async () => {
    for (const request of [chatRequest({ stream: true }), chatRequest()]) {
      expectWellFormed(await collect(engine.generate(request, signal())));
      const sent = server.requests.at(-1)!;
      expect(sent.headers['accept']).toBe('text/event-stream');
      expect(sent.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    }
  });

  it('an upstream that answers a whole request with an error status: the same coded error', async () => {
    server.setHandler(() => json(500, 'vllm-error-500.json'));
    const err = await collect(engine.generate(chatRequest({ stream: false }), signal())).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 1234 });
  });
});
