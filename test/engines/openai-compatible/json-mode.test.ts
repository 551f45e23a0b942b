import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { chatRequest, collectUntilError, engineFor, textOf } from './helpers.js';
import { ReplayServer, type Reply } from './replay-server.js';

const event = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const answer = (pieces: string[], finish = 'stop'): Reply => ({
  pieces: [...pieces.map((content) => event({ content })), event({}, finish), 'data: [DONE]\n\n'],
});

describe('JSON mode on an upstream that may ignore it', () => {
  let server: ReplayServer;
  let engine: ChatEngine;
  let reply: Reply;
  beforeAll(async () => {
    server = await ReplayServer.start(() => reply);
    engine = engineFor(server.url);
  });
  afterAll(async () => {
    await engine.close();
    await server.close();
  });
  const run = () =>
    collectUntilError(engine.generate(chatRequest({ responseFormat: 'json_object' }), new AbortController().signal));

  it('asks with json_schema and an open object schema (llama.cpp server ignores a bare json_object)', async () => {
    reply = answer(['{"a":', ' 1}']);
    const { parts, error } = await run();
    expect(error).toBeUndefined();
    expect(textOf(parts, 'text-delta')).toBe('{"a": 1}');
    expect(server.requests.at(-1)!.body['response_format']).toEqual({
      type: 'json_schema',
      json_schema: { name: 'json_object', schema: { type: 'object' } },
    });
  });

  it('json_object when configured so', async () => {
    const plain = engineFor(server.url, { jsonMode: 'json_object' });
    reply = answer(['{}']);
    await collectUntilError(
      plain.generate(chatRequest({ responseFormat: 'json_object' }), new AbortController().signal),
    );
    expect(server.requests.at(-1)!.body['response_format']).toEqual({ type: 'json_object' });
    await plain.close();
  });

  it('plain text in JSON mode: 1234 naming it, before any text goes out', async () => {
    reply = answer(['  ', 'Hello', ' there!']);
    const { parts, error } = await run();
    expect(parts.filter((p) => p.type === 'text-delta')).toEqual([]);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(1234);
    expect((error as ApiError).message).toContain('non-JSON in JSON mode');
  });

  it('text that starts like JSON but does not parse when it stops: the text, then the failure', async () => {
    reply = answer(['{"a": 1', ' and more']);
    const { parts, error } = await run();
    expect(textOf(parts, 'text-delta')).toBe('{"a": 1 and more');
    expect((error as ApiError).message).toContain('does not parse');
  });

  it('a reply cut by length stays as it is: the finish reason says so', async () => {
    reply = answer(['{"a": [1, 2'], 'length');
    const { parts, error } = await run();
    expect(error).toBeUndefined();
    expect(parts.at(-1)).toMatchObject({ type: 'finish', reason: 'length' });
  });
});
