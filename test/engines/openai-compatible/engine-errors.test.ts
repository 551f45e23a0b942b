import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamLogger } from '../../../src/engines/chat/openai-compatible/index.js';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { chatRequest, collect, collectUntilError, engineFor, textOf } from './helpers.js';
import { json, ReplayServer, type Reply, sleep, sse, sseEvents } from './replay-server.js';

const signal = () => new AbortController().signal;

class MemoryLogger implements UpstreamLogger {
  readonly errors: { details: Record<string, unknown>; message: string }[] = [];
  readonly warnings: string[] = [];
  error(details: Record<string, unknown>, message: string): void {
    this.errors.push({ details, message });
  }
  warn(_details: Record<string, unknown>, message: string): void {
    this.warnings.push(message);
  }
}

async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function expectApiError(error: unknown, code: number): ApiError {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
  return error as ApiError;
}

describe('upstream failures', () => {
  let server: ReplayServer;
  let engine: ChatEngine;
  let logger: MemoryLogger;

  beforeAll(async () => {
    server = await ReplayServer.start(() => sse('vllm-reasoning.sse'));
    logger = new MemoryLogger();
    engine = engineFor(server.url, { logger, tokenizeUrl: `${server.url}/tokenize` });
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  for (const [status, fixture] of [
    [500, 'vllm-error-500.json'],
    [429, 'hosted-error-429.json'],
  ] as const) {
    it(`HTTP ${status} before the stream: 1234 naming the status, with an error id that the log carries`, async () => {
      server.setHandler(() => json(status, fixture));
      const { parts, error } = await collectUntilError(engine.generate(chatRequest(), signal()));
      expect(parts).toEqual([]);
      const apiError = expectApiError(error, 1234);
      expect(apiError.status).toBe(502);
      expect(apiError.message).toContain(`HTTP ${status}`);
      const errorId = /error id ([0-9a-f]{16})/.exec(apiError.message)?.[1];
      expect(errorId).toBeDefined();
      const logged = logger.errors.at(-1)!;
      expect(logged.details['errorId']).toBe(errorId);
      expect(logged.details['status']).toBe(status);
      expect(String(logged.details['upstreamMessage'])).toMatch(/EngineCore|Rate limit/);
      // Upstream internals stay in the log.
      expect(apiError.message).not.toMatch(/EngineCore|Rate limit/);
    });
  }

  it('HTTP 400 about the context length: 1261', async () => {
    server.setHandler(() => json(400, 'vllm-error-context.json'));
    const { error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(expectApiError(error, 1261).message).toContain('maximum context length is 4096');
  });

  it('llama.cpp server context error shape: 1261', async () => {
    server.setHandler(() => ({
      status: 400,
      contentType: 'application/json',
      pieces: [
        '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}',
      ],
    }));
    const { error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expectApiError(error, 1261);
  });

  it('other HTTP 400: 1234', async () => {
    server.setHandler(() => ({
      status: 400,
      contentType: 'application/json',
      pieces: ['{"object":"error","message":"temperature must be non-negative","type":"BadRequestError","code":400}'],
    }));
    const { error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(expectApiError(error, 1234).message).toContain('HTTP 400');
  });

  it('connection refused: 1234', async () => {
    const port = await refusedPort();
    const dead = engineFor(`http://127.0.0.1:${port}`, { logger });
    const { error } = await collectUntilError(dead.generate(chatRequest(), signal()));
    expect(expectApiError(error, 1234).message).toContain('ECONNREFUSED');
    expect(expectApiError(error, 1234).message).not.toContain('127.0.0.1');
    await dead.close();
  });

  it('a body that is neither SSE nor JSON: 1234', async () => {
    server.setHandler(() => ({ contentType: 'text/html', pieces: ['<html>Bad gateway</html>'] }));
    const { error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(expectApiError(error, 1234).message).toContain('text/html');
  });

  it('an unparsable first event: 1234 before any part', async () => {
    server.setHandler(() => ({ pieces: ['data: {not json\n\n'] }));
    const { parts, error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(parts).toEqual([]);
    expectApiError(error, 1234);
  });

  it('connection cut mid-stream: the parts received come out, then the iterator throws', async () => {
    const events = sseEvents('vllm-reasoning.sse');
    server.setHandler(() => ({ pieces: events.slice(0, 8), cut: true }));
    const { parts, error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(textOf(parts, 'reasoning-delta')).toBe('Okay, the user greets me in Chinese');
    expect(parts.some((p) => p.type === 'finish')).toBe(false);
    expect(expectApiError(error, 1234).message).toContain('broke off');
  });

  it('a stream that ends cleanly but before finishing: throws after its parts', async () => {
    server.setHandler(() => ({ pieces: sseEvents('vllm-reasoning.sse').slice(0, 5) }));
    const { parts, error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(parts.length).toBe(4);
    expect(expectApiError(error, 1234).message).toContain('before the reply was complete');
  });

  it('an error event inside the stream: throws after the parts before it', async () => {
    const events = sseEvents('ollama-reasoning.sse').slice(0, 3);
    server.setHandler(() => ({
      pieces: [...events, 'data: {"error":{"message":"model runner has unexpectedly stopped","type":"api_error"}}\n\n'],
    }));
    const { parts, error } = await collectUntilError(engine.generate(chatRequest(), signal()));
    expect(parts).toHaveLength(3);
    expectApiError(error, 1234);
    expect(JSON.stringify(logger.errors.at(-1)?.details)).toContain('unexpectedly stopped');
  });

  it('a finished stream without [DONE] is complete', async () => {
    server.setHandler(() => ({ pieces: sseEvents('ollama-length.sse').slice(0, -1) }));
    const parts = await collect(engine.generate(chatRequest(), signal()));
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'length', usage: { promptTokens: 9 } });
  });
});

describe('aborts', () => {
  let server: ReplayServer;
  let engine: ChatEngine;

  beforeAll(async () => {
    server = await ReplayServer.start(
      (): Reply => ({ pieces: sseEvents('vllm-reasoning.sse').slice(0, 3), hang: true }),
    );
    engine = engineFor(server.url);
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });

  it('aborting mid-stream ends the iterator at once and closes the upstream request', async () => {
    const controller = new AbortController();
    const iterator = engine.generate(chatRequest(), controller.signal)[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    const closed = server.nextEarlyClose();
    const started = Date.now();
    controller.abort();
    await expect(iterator.next()).rejects.toMatchObject({ name: 'AbortError' });
    await closed;
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('aborting while waiting for the response headers closes the request', async () => {
    server.setHandler(() => ({ pieces: [], hang: true, delayMs: 0 }));
    const controller = new AbortController();
    const iterator = engine.generate(chatRequest(), controller.signal)[Symbol.asyncIterator]();
    const pending = iterator.next();
    await sleep(50);
    const closed = server.nextEarlyClose();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await closed;
  });

  it('a consumer that stops reading closes the upstream request', async () => {
    server.setHandler(() => ({ pieces: sseEvents('vllm-reasoning.sse').slice(0, 3), hang: true }));
    const closed = server.nextEarlyClose();
    for await (const _part of engine.generate(chatRequest(), signal())) break;
    await closed;
    expect(server.closedEarly).toBeGreaterThan(0);
  });

  it('a signal aborted before the call sends nothing', async () => {
    const before = server.requests.length;
    const controller = new AbortController();
    controller.abort();
    await expect(collect(engine.generate(chatRequest(), controller.signal))).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(server.requests.length).toBe(before);
  });
});

describe('countTokens', () => {
  it("uses vLLM's /tokenize with messages, tools and the thinking switch", async () => {
    const server = await ReplayServer.start(() => ({
      contentType: 'application/json',
      pieces: ['{"count":42,"max_model_len":32768,"tokens":[1,2,3],"token_strs":null}'],
    }));
    const engine = engineFor(server.url, { tokenizeUrl: `${server.url}/tokenize` });
    const tools = [{ name: 'f', parameters: { type: 'object' } }];
    expect(await engine.countTokens([{ role: 'user', content: 'hi' }], tools)).toBe(42);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/tokenize');
    expect(sent.body).toMatchObject({
      model: 'Qwen/Qwen3-8B',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
      add_generation_prompt: true,
      chat_template_kwargs: { enable_thinking: true },
    });
    server.setHandler(() => json(500, 'vllm-error-500.json'));
    await expect(engine.countTokens([{ role: 'user', content: 'hi' }], [])).rejects.toMatchObject({ code: 1234 });
    await engine.close();
    await server.close();
  });

  it('without a tokenizer: a clear coded error', async () => {
    const engine = engineFor('http://127.0.0.1:9', { tokenizerApi: 'none' });
    const error = await engine.countTokens([{ role: 'user', content: 'hi' }], []).catch((err: unknown) => err);
    expect(expectApiError(error, 1212).message).toMatch(/No tokenizer is available/);
    await engine.close();
  });
});
