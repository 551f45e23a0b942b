import { ChatCompletionBody } from '../api/chat.js';
import { ChatCompletionChunk, ChatCompletionReply } from '../api/chat-reply.js';
import { checkMaxTokens, checkMessageList } from '../api/rules.js';
import { checkToolSchemas } from '../api/schema-depth.js';
import { modelNotConfigured } from '../errors/errors.js';
import { sendEventStream } from '../server/event-stream.js';
import { JSON_TYPE } from '../server/json-type.js';
import { defineOperation } from './operation.js';

export const chatCompletions = defineOperation<ChatCompletionBody, typeof ChatCompletionReply>({
  id: 'chat.completions',
  method: 'POST',
  path: '/chat/completions',
  base: 'paas',
  summary: 'Chat completion, whole or streamed as server-sent events',
  body: ChatCompletionBody,
  reply: ChatCompletionReply,
  chunk: ChatCompletionChunk,
  rules(body) {
    checkMessageList(body.messages, { assistantNeedsContent: true });
    checkMaxTokens(body.model, body.max_tokens);
    checkToolSchemas(body.tools);
  },
  async handle(ctx) {
    const { body, services, identity, signal, request, reply } = ctx;
    const chat = services.chat;
    if (!chat) throw modelNotConfigured(`Model ${body.model}`, `models.${body.model}`);
    // The service notes what the completion uses in ctx.usage, however it ends.
    const run = await chat.start(body, identity, ctx);
    if (!body.stream) {
      const completion = await chat.complete(run);
      reply.type(JSON_TYPE);
      return completion;
    }
    const log = (err: unknown, message: string) => request.log.error({ err }, message);
    await sendEventStream(reply, chat.chunks(run, signal, log));
    return undefined;
  },
});
