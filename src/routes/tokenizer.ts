import { checkMessageList } from '../api/rules.js';
import { checkToolSchemas } from '../api/schema-depth.js';
import { TokenizerBody } from '../api/tokenizer.js';
import { TokenizerReply } from '../api/tokenizer-reply.js';
import { modelNotConfigured } from '../errors/errors.js';
import { defineOperation } from './operation.js';

export const tokenizer = defineOperation<TokenizerBody, typeof TokenizerReply>({
  id: 'tokenizer',
  method: 'POST',
  path: '/tokenizer',
  base: 'paas',
  summary: 'Count the tokens of a message list',
  body: TokenizerBody,
  reply: TokenizerReply,
  rules(body) {
    checkMessageList(body.messages, { assistantNeedsContent: false });
    checkToolSchemas(body.tools);
  },
  async handle(ctx) {
    const { body, services, identity, usage } = ctx;
    if (!services.tokenizer) throw modelNotConfigured(`Model ${body.model}`, `models.${body.model}`);
    const reply = await services.tokenizer.count(body, identity, ctx.signal);
    usage.add({ promptTokens: reply.usage.total_tokens, completionTokens: 0 });
    return reply;
  },
});
