import { CountTokensBody, MessagesBody, ModelIdParams } from '../api/anthropic.js';
import {
  AnthropicErrorReply,
  AnthropicMessage,
  AnthropicModel,
  AnthropicModelList,
  AnthropicStreamEvent,
  CountTokensReply,
} from '../api/anthropic-reply.js';
import { checkToolSchemas } from '../api/schema-depth.js';
import { anthropicErrorBody, anthropicErrorType } from '../server/anthropic-error.js';
import { foreignErrorStatus } from '../server/error-body.js';
import { sendEventStream } from '../server/event-stream.js';
import { JSON_TYPE } from '../server/json-type.js';
import { MessageStream } from '../services/anthropic/message-stream.js';
import { checkModel, modelAllowedByAll } from '../services/keys/key-policy.js';
import { defineOperation } from './operation.js';

/** docs/wire.md, "Anthropic Messages": this API answers errors in Anthropic's shape. */
const errors = { shape: anthropicErrorBody, reply: AnthropicErrorReply, status: foreignErrorStatus };

export const anthropicMessages = defineOperation<MessagesBody, typeof AnthropicMessage>({
  id: 'anthropic.messages',
  method: 'POST',
  path: '/messages',
  base: 'anthropic',
  summary: "A message (Anthropic's Messages API), whole or streamed as named server-sent events",
  body: MessagesBody,
  reply: AnthropicMessage,
  chunk: AnthropicStreamEvent,
  errors,
  model: (body, services) => services.anthropic.codeOf(body.model),
  rules: (body) => checkToolSchemas(body.tools),
  async handle(ctx) {
    const { body, services, identity, signal, request, reply } = ctx;
    const anthropic = services.anthropic;
    // The chat service notes what the turn uses in ctx.usage, however it ends.
    const run = await anthropic.start(body, identity, ctx);
    if (!body.stream) {
      const message = await anthropic.complete(run);
      reply.type(JSON_TYPE);
      return message;
    }
    const log = (err: unknown, message: string) => request.log.error({ err }, message);
    const pingMs = services.config.anthropic.ping_interval_seconds * 1000;
    const stream = new MessageStream(anthropic, run, signal, pingMs, anthropicErrorType, log);
    // The stream's head is written on the raw response: the scope's `request-id` header goes with it.
    reply.raw.setHeader('request-id', request.id);
    await sendEventStream(reply, stream.events(), { frame: (text) => text, last: () => stream.last() });
    return undefined;
  },
});

export const anthropicCountTokens = defineOperation<CountTokensBody, typeof CountTokensReply>({
  id: 'anthropic.messages.count_tokens',
  method: 'POST',
  path: '/messages/count_tokens',
  base: 'anthropic',
  summary: 'Input tokens of a message request, with the serving model’s tokenizer and chat template',
  body: CountTokensBody,
  reply: CountTokensReply,
  errors,
  model: (body, services) => services.anthropic.codeOf(body.model),
  rules: (body) => checkToolSchemas(body.tools),
  async handle(ctx) {
    return { input_tokens: await ctx.services.anthropic.countTokens(ctx.body, ctx) };
  },
});

export const anthropicModels = defineOperation<unknown, typeof AnthropicModelList>({
  id: 'anthropic.models.list',
  method: 'GET',
  path: '/models',
  base: 'anthropic',
  summary: "The model codes served here, in Anthropic's list shape",
  reply: AnthropicModelList,
  errors,
  async handle({ services, key, request }) {
    // As `/models` lists them: only the codes the key (and its account) may call.
    const account = request.keyAccount?.models;
    const data = await services.anthropic.models((code) => modelAllowedByAll([key.policy?.models, account], code));
    return { data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: false };
  },
});

export const anthropicModel = defineOperation<unknown, typeof AnthropicModel>({
  id: 'anthropic.models.get',
  method: 'GET',
  path: '/models/:id',
  base: 'anthropic',
  summary: 'One model by code or Claude name, with the context window of the deployment that serves it',
  params: ModelIdParams,
  reply: AnthropicModel,
  errors,
  async handle({ services, params, key, request }) {
    return services.anthropic.model(params['id']!, (code) =>
      checkModel(key, code, request.keyAccount?.models, params['id']),
    );
  },
});

export const ANTHROPIC_OPERATIONS = [anthropicMessages, anthropicCountTokens, anthropicModels, anthropicModel];
