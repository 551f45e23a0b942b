import { existsSync } from 'node:fs';
import { Type } from '@sinclair/typebox';
import { upstreamFailure } from '../../../errors/errors.js';
import { defineChatEngine } from '../factory.js';
import { createLlamaCppEngine } from './engine.js';
import { isRemote, llamaCppSource, localModelFile } from './model-file.js';

const LlamaCppDeployment = Type.Object(
  {
    engine: Type.Literal('llama-cpp', { description: 'The embedded llama.cpp engine (node-llama-cpp).' }),
    model: Type.String({
      minLength: 1,
      description:
        'A local GGUF path, or a reference downloaded on first use (`hf:user/repo:quant`, `https://...gguf`).',
    }),
    threads: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 256, description: 'CPU threads; default `embedded.threads`.' }),
    ),
    context_size: Type.Optional(
      Type.Integer({ minimum: 256, description: 'Context window per sequence; default 4096.' }),
    ),
    parallel: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 64, description: 'Generations at once (sequences); default 1.' }),
    ),
    queue: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Requests that may wait for a sequence; one more gets 1305. Default 16 × parallel.',
      }),
    ),
    gpu: Type.Optional(Type.Boolean({ description: 'Offload to a GPU when llama.cpp finds one; default off.' })),
    max_output: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Largest completion; default the context size.' }),
    ),
    prompt_cache_bytes: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Bytes of prompt states shared between sequences; default `embedded.prompt_cache_bytes`. 0: none.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const llamaCppFactory = defineChatEngine({
  schema: LlamaCppDeployment,
  async create(o, context) {
    const modelPath = await localModelFile(o.model, context, true);
    if (!existsSync(modelPath)) throw upstreamFailure(`The model file ${modelPath} does not exist`);
    return createLlamaCppEngine({
      modelPath,
      threads: o.threads ?? context.defaultThreads,
      tokenizerQueueSize: context.tokenizerQueueSize,
      ...(o.context_size === undefined ? {} : { contextSize: o.context_size }),
      ...(o.parallel === undefined ? {} : { parallel: o.parallel }),
      ...(o.queue === undefined ? {} : { queueLimit: o.queue }),
      ...(o.max_output === undefined ? {} : { maxOutput: o.max_output }),
      gpu: o.gpu ? 'auto' : false,
      promptCacheBytes: o.prompt_cache_bytes ?? context.promptCacheBytes,
      warn: (details, message) => context.log.warn(details, message),
    });
  },
  async prepare(o, context) {
    return isRemote(o.model) ? localModelFile(o.model, context, true) : undefined;
  },
  source: (o, context) => llamaCppSource(o.model, context),
});
