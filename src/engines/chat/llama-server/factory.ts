import { existsSync } from 'node:fs';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { upstreamFailure } from '../../../errors/errors.js';
import { defineChatEngine, type EngineContext } from '../factory.js';
import { isRemote, llamaCppSource, localModelFile } from '../llama-cpp/model-file.js';
import { OpenAICompatibleDeployment } from '../openai-compatible/factory.js';
import { resolveBinary } from './binary.js';
import { createLlamaServerEngine } from './engine.js';

const upstream = OpenAICompatibleDeployment.properties;

const LlamaServerDeployment = Type.Object(
  {
    engine: Type.Literal('llama-server', {
      description:
        "llama.cpp's own server, run and supervised by gen-platform on the deployment's GGUF (restarted if it dies, stopped with the server).",
    }),
    model: Type.String({
      minLength: 1,
      description:
        'A local GGUF path, or a reference downloaded on first use (`hf:user/repo:quant`, `https://...gguf`).',
    }),
    binary: Type.Optional(
      Type.String({ minLength: 1, description: "This deployment's llama-server; default `llama_server.binary`." }),
    ),
    threads: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 256, description: 'CPU threads; default `embedded.threads`.' }),
    ),
    context_size: Type.Optional(
      Type.Integer({
        minimum: 256,
        description: "Context window of each sequence; default 4096 (capped at the model's trained length).",
      }),
    ),
    parallel: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 64, description: 'Generations at once (llama-server slots); default 1.' }),
    ),
    batch_size: Type.Optional(
      Type.Integer({ minimum: 1, description: "Logical batch (`-b`); default llama-server's." }),
    ),
    ubatch_size: Type.Optional(
      Type.Integer({ minimum: 1, description: "Physical batch (`-ub`); default llama-server's." }),
    ),
    gpu: Type.Optional(Type.Boolean({ description: 'Offload to a GPU when the build has one; default off.' })),
    chat_template_file: Type.Optional(
      Type.String({ minLength: 1, description: "A Jinja chat template used instead of the GGUF's own." }),
    ),
    max_output: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Largest completion; default the context size.' }),
    ),
    tools: Type.Optional(
      Type.Boolean({ description: 'The model takes function tools; default: what the chat template says.' }),
    ),
    thinking: Type.Optional(
      Type.Boolean({
        description: 'The model thinks; default: the chat template has a `<think>` block or a thinking switch.',
      }),
    ),
    extra_args: Type.Optional(
      Type.Array(Type.String(), { description: 'More llama-server flags, passed after the ones set from these keys.' }),
    ),
    start_timeout_s: Type.Integer({
      minimum: 1,
      default: 120,
      description: 'Longest wait for llama-server to load the model and answer /health.',
    }),
    stop_grace_s: Type.Integer({
      minimum: 0,
      default: 5,
      description: 'On shutdown, llama-server gets SIGTERM, then SIGKILL after this many seconds.',
    }),
    timeouts: upstream.timeouts,
    limits: upstream.limits,
    connections: upstream.connections,
  },
  { additionalProperties: false },
);

const ownBinary = (binary: string | undefined, context: EngineContext) =>
  binary === undefined ? undefined : path.resolve(context.configDir, binary);

const describe = (model: string) => `engine: llama-server deployment of ${model}`;

export const llamaServerFactory = defineChatEngine({
  schema: LlamaServerDeployment,
  async create(o, context) {
    const binary = await resolveBinary(ownBinary(o.binary, context), context.llamaServer, describe(o.model));
    const modelPath = await localModelFile(o.model, context, true);
    if (!existsSync(modelPath)) throw upstreamFailure(`The model file ${modelPath} does not exist`);
    const t = o.timeouts;
    return createLlamaServerEngine({
      binary,
      settings: {
        modelPath,
        threads: o.threads ?? context.defaultThreads,
        contextSize: o.context_size ?? 4096,
        parallel: o.parallel ?? 1,
        batchSize: o.batch_size,
        ubatchSize: o.ubatch_size,
        gpu: o.gpu ?? false,
        chatTemplateFile:
          o.chat_template_file === undefined ? undefined : path.resolve(context.configDir, o.chat_template_file),
        alias: path.basename(modelPath, '.gguf'),
        extraArgs: o.extra_args ?? [],
      },
      overrides: { tools: o.tools, thinking: o.thinking, maxOutput: o.max_output },
      upstream: {
        timeouts: t && {
          connectMs: t.connect_ms,
          headersMs: t.headers_ms,
          idleMs: t.idle_ms,
          keepAliveMs: t.keep_alive_ms,
        },
        limits: o.limits && {
          maxEventBytes: o.limits.max_event_bytes,
          maxJsonBytes: o.limits.max_json_bytes,
          maxReplyBytes: o.limits.max_reply_bytes,
        },
        connections: o.connections,
      },
      startTimeoutMs: o.start_timeout_s * 1000,
      stopGraceMs: o.stop_grace_s * 1000,
      log: context.log,
      label: describe(o.model),
    });
  },
  async prepare(o, context) {
    return isRemote(o.model) ? localModelFile(o.model, context, true) : undefined;
  },
  source: (o, context) => llamaCppSource(o.model, context),
  async preflight(o, context) {
    await resolveBinary(ownBinary(o.binary, context), context.llamaServer, describe(o.model));
  },
});
