import { Type } from '@sinclair/typebox';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ChatCompletionReply } from '../../src/api/chat-reply.js';
import { ErrorReply } from '../../src/api/error-reply.js';
import type { ChatStreamPart } from '../../src/engines/chat/types.js';
import { foldParts } from '../../src/services/chat/fold-parts.js';
import type { ChatCompletion } from '../../src/services/chat/wire-types.js';

async function* from(parts: ChatStreamPart[]): AsyncGenerator<ChatStreamPart> {
  yield* parts;
}

/** What Fastify sends for `value` on a route whose 200 reply schema is `schema`. */
async function served(schema: object, value: unknown): Promise<{ status: number; text: string }> {
  const app = Fastify();
  app.get('/', { schema: { response: { 200: schema, '5xx': ErrorReply } } }, async () => value);
  app.setErrorHandler((_err, _request, reply) =>
    reply.code(500).send({ code: 500, message: 'Internal error', error: { code: '500', message: 'Internal error' } }),
  );
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { status: res.statusCode, text: res.payload };
}

const usage = { promptTokens: 12, completionTokens: 10, cachedTokens: 3, reasoningTokens: 2 };
const identities = [
  { id: 'req-1', requestId: 'req-1', created: 1747393912, model: 'gen-4.6' },
  { id: 'a"b\\c\u0001', requestId: '模型 "x"\n', created: 0, model: '\u2028\ud800' },
];
const replies: ChatStreamPart[][] = [
  [
    { type: 'text-delta', text: 'Hello "fox" \\ 🦊\n' },
    { type: 'finish', reason: 'stop', usage },
  ],
  [{ type: 'finish', reason: 'length', usage: { ...usage, cachedTokens: 0, reasoningTokens: 0 } }],
  [
    { type: 'reasoning-delta', text: 'think' },
    { type: 'tool-call-start', index: 1, id: 'call_b', name: 'b' },
    { type: 'tool-call-start', index: 0, id: 'call_a', name: 'a' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
    { type: 'tool-call-end', index: 0 },
    { type: 'tool-call-end', index: 1 },
    { type: 'finish', reason: 'tool_calls', usage },
  ],
];

// The folded reply goes out through Fastify's serializer compiled from its schema: byte for byte
// what JSON.stringify made of it when the service wrote the text itself, with and without results.
describe('the chat completion reply serialised from its schema', () => {
  for (const identity of identities) {
    for (const [i, parts] of replies.entries()) {
      it(`is JSON.stringify of the folded reply ${i} (id ${JSON.stringify(identity.id)})`, async () => {
        const completion = await foldParts(from(parts), identity);
        expect((await served(ChatCompletionReply, completion)).text).toBe(JSON.stringify(completion));
        const searched: ChatCompletion = {
          ...completion,
          web_search: [
            {
              title: 't "q"',
              content: 'c',
              link: 'https://example.com',
              media: '',
              icon: '',
              refer: 'ref_1',
              publish_date: '',
            },
          ],
        };
        expect((await served(ChatCompletionReply, searched)).text).toBe(JSON.stringify(searched));
      });
    }
  }
});

describe('a reply that breaks its schema', () => {
  it('fails as an internal error instead of going out half-formed', async () => {
    const completion = await foldParts(from(replies[0]!), identities[0]!);
    const { usage: _dropped, ...broken } = completion;
    const res = await served(ChatCompletionReply, broken);
    expect(res.status).toBe(500);
    expect(JSON.parse(res.text)).toMatchObject({ code: 500 });
  });

  it('fails when a required nested field is missing', async () => {
    const res = await served(Type.Object({ a: Type.Object({ b: Type.String() }) }), { a: {} });
    expect(res.status).toBe(500);
  });
});
