import { AsyncImageGenerationBody, AsyncResultParams, ImageGenerationBody } from '../api/images.js';
import { ImageReply, TaskHandleReply, TaskResultReply } from '../api/images-reply.js';
import { checkImageSize } from '../api/rules.js';
import { modelNotConfigured, notFound } from '../errors/errors.js';
import { publicUrl } from '../server/public-url.js';
import { filePath } from './files.js';
import { defineOperation } from './operation.js';
import { taskView } from './task-view.js';

export const imageGenerations = defineOperation<ImageGenerationBody, typeof ImageReply>({
  id: 'images.generations',
  method: 'POST',
  path: '/images/generations',
  base: 'paas',
  summary: 'Generate an image (synchronous)',
  body: ImageGenerationBody,
  reply: ImageReply,
  rules: (body) => checkImageSize(body.model, body.size),
  async handle({ body, services, key, identity, signal, request, usage }) {
    const images = services.images;
    if (!images) throw modelNotConfigured(`Image model ${body.model}`, `models.${body.model}`);
    const { created } = identity;
    const { prompt, model, size, quality } = body;
    const outcome = await images.generate({ model, prompt, size, quality }, signal, key.id, usage.meter);
    return {
      created,
      data: [{ url: publicUrl(request, services.config.server.public_url, filePath(outcome.file)) }],
      content_filter: outcome.contentFilter,
    };
  },
});

export const asyncImageGenerations = defineOperation<AsyncImageGenerationBody, typeof TaskHandleReply>({
  id: 'async.images.generations',
  method: 'POST',
  path: '/async/images/generations',
  base: 'paas',
  summary: 'Generate an image as an asynchronous task',
  body: AsyncImageGenerationBody,
  reply: TaskHandleReply,
  rules: (body) => checkImageSize(body.model, body.size),
  async handle({ body, services, key, identity, usage, request }) {
    const images = services.images;
    if (!images) throw modelNotConfigured(`Image model ${body.model}`, `models.${body.model}`);
    const { id, requestId } = identity;
    const { prompt, model, size, quality } = body;
    // Priced: the task holds its own reservation (the request's ends with its reply), until it ends.
    const meter = usage.meter && services.billing.meter(key.id, `task-${id}`, `task:${id}`);
    // The account's keys share its part of the queue, as they share its limits.
    const accountId = request.keyAccount?.accountId;
    const task = await images.submit(
      { model, prompt, size, quality },
      { id, requestId, keyId: key.id, accountId },
      meter,
    );
    return { model: task.model, id: task.id, request_id: task.requestId, task_status: task.status };
  },
});

export const asyncResult = defineOperation({
  id: 'async.result',
  method: 'GET',
  path: '/async-result/:id',
  base: 'paas',
  summary: 'The state and result of an asynchronous task',
  params: AsyncResultParams,
  reply: TaskResultReply,
  async handle({ params, services, key, request }) {
    const id = params['id']!;
    // Without an image model no task can have been made here.
    if (!services.images) throw notFound(`Task ${id} does not exist`);
    const task = await services.images.task(id, key.id);
    return taskView(task, (file) => publicUrl(request, services.config.server.public_url, filePath(file)));
  },
});
