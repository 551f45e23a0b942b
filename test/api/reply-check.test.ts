import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AgentChunk, AgentReply } from '../../src/api/agents-reply.js';
import { ChatCompletionChunk, ChatCompletionReply } from '../../src/api/chat-reply.js';
import { ErrorReply } from '../../src/api/error-reply.js';
import { installReplyCheck, replyProblems } from '../helpers/reply-check.js';

const chat = { reply: ChatCompletionReply, chunk: ChatCompletionChunk, error: ErrorReply };
const head = { id: '20261121051800a1b2c3d4e5f60718', created: 1, object: 'chat.completion.chunk', model: 'gen-4.6' };
const usage = {
  prompt_tokens: 1,
  completion_tokens: 1,
  total_tokens: 2,
  prompt_tokens_details: { cached_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0 },
};
const sse = (...chunks: unknown[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const text = { ...head, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' } }] };
const last = {
  ...head,
  choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: 'stop' }],
  usage,
};

describe('replyProblems: the e2e suite check of replies against their schemas', () => {
  it('passes a stream whose every chunk holds', () => {
    expect(replyProblems(chat, 200, sse(text, last))).toEqual([]);
  });

  it('names the chunk that lacks a field, has one no schema documents, or a wrong value', () => {
    const { model: _m, ...noModel } = text;
    expect(replyProblems(chat, 200, sse(noModel, last))[0]).toMatch(/^chunk 0: .*model/);
    expect(replyProblems(chat, 200, sse(text, { ...last, extra: 1 }))[0]).toMatch(/^chunk 1: .*extra/);
    const badReason = { ...last, choices: [{ ...last.choices[0], finish_reason: 'done' }] };
    expect(replyProblems(chat, 200, sse(text, badReason))).not.toEqual([]);
  });

  it('checks error bodies against the error reply', () => {
    const ok = { code: 1214, message: 'm', error: { code: '1214', message: 'm' } };
    expect(replyProblems(chat, 400, JSON.stringify(ok))).toEqual([]);
    expect(replyProblems(chat, 400, JSON.stringify({ ...ok, code: '1214' }))).not.toEqual([]);
    expect(replyProblems(chat, 500, 'not json')).not.toEqual([]);
  });
});

describe('installReplyCheck', () => {
  it('collects a reply and a stream chunk that break their route schemas', async () => {
    const app = Fastify();
    const check = installReplyCheck(app);
    const response = {
      200: {
        content: { 'application/json': { schema: AgentReply }, 'text/event-stream': { schema: AgentChunk } },
      },
      '4xx': ErrorReply,
    };
    app.post('/v1/agents', { schema: { response } }, async (request, reply) => {
      if ((request.body as { stream?: boolean }).stream) {
        reply.hijack();
        reply.raw.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
        reply.raw.write('data: {"id":"x"}\n\n');
        reply.raw.end('data: [DONE]\n\n');
        return reply;
      }
      // A string goes out as it is, past the serializer: the check still sees it.
      return reply.code(400).type('application/json').send('{"code":1214}');
    });
    const post = (body: unknown) => app.inject({ method: 'POST', url: '/v1/agents', payload: body as object });
    expect((await post({ stream: true })).statusCode).toBe(200);
    expect((await post({})).statusCode).toBe(400);
    await app.close();
    expect(check.violations).toHaveLength(2);
    expect(check.violations[0]).toMatch(/^POST \/v1\/agents → 200: chunk 0: /);
    expect(check.violations[1]).toMatch(/^POST \/v1\/agents → 400: /);
  });
});
