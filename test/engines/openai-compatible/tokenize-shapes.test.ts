import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { engineFor } from './helpers.js';
import { type RecordedRequest, ReplayServer, type Reply } from './replay-server.js';

const PROMPT = '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n';
const reply = (status: number, body: unknown): Reply => ({
  status,
  contentType: 'application/json',
  pieces: [JSON.stringify(body)],
});

/** llama.cpp server's endpoints as it answers them (tools/server/server-context.cpp). */
function llamaServer(request: RecordedRequest): Reply {
  if (request.path === '/apply-template') return reply(200, { prompt: PROMPT });
  if (request.path === '/tokenize') {
    const content = request.body['content'];
    // Without `content` it answers an empty list, as llama.cpp server does.
    return reply(200, { tokens: typeof content === 'string' ? Array.from(content, (_, i) => i) : [] });
  }
  return reply(404, { error: 'not found' });
}

function vllm(request: RecordedRequest): Reply {
  if (request.path === '/tokenize') return reply(200, { count: 7, max_model_len: 4096, tokens: [1, 2, 3, 4, 5, 6, 7] });
  return reply(404, { detail: 'Not Found' });
}

const hosted = (): Reply => reply(404, { error: { message: 'Unknown route' } });

const messages = [{ role: 'user' as const, content: 'hi' }];

describe("the upstream's own tokenizer, its shape configured or found", () => {
  let server: ReplayServer;
  const engines: ChatEngine[] = [];
  const engine = (extra: Parameters<typeof engineFor>[1] = {}) => {
    const e = engineFor(server.url, { capabilities: { ...capabilitiesNoThinking }, ...extra });
    engines.push(e);
    return e;
  };
  beforeAll(async () => {
    server = await ReplayServer.start(llamaServer);
  });
  afterAll(async () => {
    for (const e of engines) await e.close();
    await server.close();
  });

  it('llama.cpp server, found: /apply-template renders, /tokenize {content, add_special} counts', async () => {
    server.setHandler(llamaServer);
    const e = engine({ tokenizeUrl: `${server.url}/tokenize` });
    const before = server.requests.length;
    await expect(e.countTokens(messages, [])).resolves.toBe(PROMPT.length);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => r.path)).toEqual(['/tokenize', '/apply-template', '/tokenize']);
    expect(sent[1]!.body).toMatchObject({ model: 'Qwen/Qwen3-8B', messages });
    expect(sent[2]!.body).toEqual({ content: PROMPT, add_special: true, parse_special: true });
    // The shape is kept: no probe the second time.
    const again = server.requests.length;
    await expect(e.countTokens(messages, [])).resolves.toBe(PROMPT.length);
    expect(server.requests.slice(again).map((r) => r.path)).toEqual(['/apply-template', '/tokenize']);
  });

  it('llama.cpp server with no tokenize_url: <origin>/tokenize is found', async () => {
    server.setHandler(llamaServer);
    await expect(engine().countTokens(messages, [])).resolves.toBe(PROMPT.length);
  });

  it('llama.cpp server configured: no probe', async () => {
    server.setHandler(llamaServer);
    const before = server.requests.length;
    await expect(engine({ tokenizerApi: 'llama-server' }).countTokens(messages, [])).resolves.toBe(PROMPT.length);
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/apply-template', '/tokenize']);
  });

  it('vLLM, found: its count, from one call with the messages', async () => {
    server.setHandler(vllm);
    const before = server.requests.length;
    await expect(engine().countTokens(messages, [])).resolves.toBe(7);
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ model: 'Qwen/Qwen3-8B', messages, add_generation_prompt: true });
  });

  it('an upstream without a tokenizer: 1212, tried once', async () => {
    server.setHandler(hosted);
    const e = engine();
    const before = server.requests.length;
    for (let i = 0; i < 2; i++) {
      const error = await e.countTokens(messages, []).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(1212);
    }
    expect(server.requests.length - before).toBe(1);
  });

  it('a configured tokenize_url that fails is an upstream failure (1234), never 1212', async () => {
    server.setHandler(hosted);
    const error = await engine({ tokenizeUrl: `${server.url}/tokenize` })
      .countTokens(messages, [])
      .catch((err: unknown) => err);
    expect((error as ApiError).code).toBe(1234);
  });
});

const capabilitiesNoThinking = {
  tools: true,
  thinking: false,
  json: true,
  vision: false,
  maxContext: 32_768,
  maxOutput: 8_192,
};
