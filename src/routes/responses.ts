import { ResponseCreateBody, ResponseIdParams } from '../api/responses.js';
import { OpenAiErrorReply, ResponseDeleted, ResponseObject, ResponseStreamEvent } from '../api/responses-reply.js';
import { checkSchemaDepth, checkToolSchemas } from '../api/schema-depth.js';
import { foreignErrorStatus } from '../server/error-body.js';
import { sendEventStream } from '../server/event-stream.js';
import { JSON_TYPE } from '../server/json-type.js';
import { openAiErrorBody } from '../server/openai-error.js';
import { ResponseStream } from '../services/responses/response-stream.js';
import { defineOperation, type Operation } from './operation.js';

/** docs/wire.md, "Responses": this API answers errors in OpenAI's shape. */
const errors = { shape: openAiErrorBody, reply: OpenAiErrorReply, status: foreignErrorStatus };

const createOn = (base: Operation['base'], id: string) =>
  defineOperation<ResponseCreateBody, typeof ResponseObject>({
    id,
    method: 'POST',
    path: '/responses',
    base,
    summary: "A model response (OpenAI's Responses API), whole or streamed as named server-sent events",
    body: ResponseCreateBody,
    reply: ResponseObject,
    chunk: ResponseStreamEvent,
    errors,
    rules(body) {
      checkToolSchemas(body.tools);
      const format = body.text?.format;
      if (format?.type === 'json_schema') checkSchemaDepth(format.schema, 'text.format.schema');
    },
    async handle(ctx) {
      const { body, services, key, identity, signal, request, reply } = ctx;
      const responses = services.responses;
      // The chat service notes what the turn uses in ctx.usage, however it ends.
      const run = await responses.start(body, identity, ctx, key.id);
      if (!body.stream) {
        const response = await responses.complete(run);
        reply.type(JSON_TYPE);
        return response;
      }
      const log = (err: unknown, message: string) => request.log.error({ err }, message);
      const keepaliveMs = services.config.responses.keepalive_interval_seconds * 1000;
      const stream = new ResponseStream(responses, run, signal, log, keepaliveMs);
      await sendEventStream(reply, stream.events(), { frame: (text) => text, last: () => stream.last() });
      return undefined;
    },
  });

const getOn = (base: Operation['base'], id: string) =>
  defineOperation<unknown, typeof ResponseObject>({
    id,
    method: 'GET',
    path: '/responses/:id',
    base,
    summary: 'A stored response (made with `store: true`) of the same key',
    params: ResponseIdParams,
    reply: ResponseObject,
    errors,
    async handle({ params, services, key, reply }) {
      const response = await services.responses.get(key.id, params['id']!);
      reply.type(JSON_TYPE);
      return response;
    },
  });

const deleteOn = (base: Operation['base'], id: string) =>
  defineOperation<unknown, typeof ResponseDeleted>({
    id,
    method: 'DELETE',
    path: '/responses/:id',
    base,
    summary: 'Deletes a stored response of the same key',
    params: ResponseIdParams,
    reply: ResponseDeleted,
    errors,
    async handle({ params, services, key }) {
      const responseId = params['id']!;
      await services.responses.delete(key.id, responseId);
      return { id: responseId, object: 'response' as const, deleted: true as const };
    },
  });

export const responsesCreate = createOn('paas', 'responses.create');
export const responsesGet = getOn('paas', 'responses.get');
export const responsesDelete = deleteOn('paas', 'responses.delete');
/** The same operations at `/v1/responses`, where OpenAI-style clients configured with a `/v1` base look. */
export const responsesCreateV1 = createOn('agents', 'responses.create.v1');
export const responsesGetV1 = getOn('agents', 'responses.get.v1');
export const responsesDeleteV1 = deleteOn('agents', 'responses.delete.v1');
