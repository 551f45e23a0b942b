import { ChatCompletionBody } from '../api/chat.js';
import { ChatCompletionChunk, ChatCompletionReply } from '../api/chat-reply.js';
import { checkMaxTokens, checkMessageList } from '../api/rules.js';
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
  },
  async handle({ body, services, key, identity, signal, request, reply }) {
    const chat = services.chat;
    if (!chat) throw modelNotConfigured(`Model ${body.model}`, `models.${body.model}`);
    const run = await chat.start(body, identity, signal, key.id);
    const noteUsage = () => {
      request.usage.promptTokens = run.usage?.promptTokens ?? 0;
      request.usage.completionTokens = run.usage?.completionTokens ?? 0;
    };
    if (!body.stream) {
      const completion = await chat.complete(run);
      noteUsage();
      reply.type(JSON_TYPE);
      return completion;
    }
    const log = (err: unknown, message: string) => request.log.error({ err }, message);
    try {
      await sendEventStream(reply, chat.chunks(run, signal, log), noteUsage);
    } finally {
      noteUsage();
    }
    return undefined;
  },
});
