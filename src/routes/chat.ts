import { ChatCompletionBody } from '../api/chat.js';
import { checkMaxTokens, checkMessageList } from '../api/rules.js';
import { notConfigured } from './not-configured.js';
import { defineOperation } from './operation.js';

export const chatCompletions = defineOperation<ChatCompletionBody>({
  id: 'chat.completions',
  method: 'POST',
  path: '/chat/completions',
  base: 'paas',
  summary: 'Chat completion, whole or streamed as server-sent events',
  body: ChatCompletionBody,
  rules(body) {
    checkMessageList(body.messages, { assistantNeedsContent: true });
    checkMaxTokens(body.model, body.max_tokens);
  },
  async handle({ body }) {
    throw notConfigured(`Model ${body.model}`, `models.${body.model}`);
  },
});
