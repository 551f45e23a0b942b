import { AsyncImageGenerationBody, AsyncResultParams, ImageGenerationBody } from '../api/images.js';
import { checkImageSize } from '../api/rules.js';
import { ApiError } from '../errors/api-error.js';
import { notConfigured } from './not-configured.js';
import { defineOperation } from './operation.js';

export const imageGenerations = defineOperation<ImageGenerationBody>({
  id: 'images.generations',
  method: 'POST',
  path: '/images/generations',
  base: 'paas',
  summary: 'Generate an image (synchronous)',
  body: ImageGenerationBody,
  rules: (body) => checkImageSize(body.model, body.size),
  async handle({ body }) {
    throw notConfigured(`Image model ${body.model}`, `models.${body.model}`);
  },
});

export const asyncImageGenerations = defineOperation<AsyncImageGenerationBody>({
  id: 'async.images.generations',
  method: 'POST',
  path: '/async/images/generations',
  base: 'paas',
  summary: 'Generate an image as an asynchronous task',
  body: AsyncImageGenerationBody,
  rules: (body) => checkImageSize(body.model, body.size),
  async handle({ body }) {
    throw notConfigured(`Image model ${body.model}`, `models.${body.model}`);
  },
});

export const asyncResult = defineOperation({
  id: 'async.result',
  method: 'GET',
  path: '/async-result/:id',
  base: 'paas',
  summary: 'The state and result of an asynchronous task',
  params: AsyncResultParams,
  async handle({ params }) {
    // No task store exists until an asynchronous operation is configured, so no id can be known.
    throw new ApiError(1233, `Task ${params['id']} does not exist`);
  },
});
