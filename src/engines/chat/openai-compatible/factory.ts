import path from 'node:path';
import { Type } from '@sinclair/typebox';
import { defineChatEngine } from '../factory.js';
import { HfTokenCounter } from '../hf-tokenizer/hf-token-counter.js';
import { createOpenAICompatibleEngine } from './engine.js';

export const OpenAICompatibleDeployment = Type.Object(
  {
    engine: Type.Literal('openai-compatible', {
      description: 'vLLM, SGLang, Ollama, llama.cpp server, LocalAI or a hosted OpenAI-style API.',
    }),
    base_url: Type.String({
      pattern: '^https?://',
      description: 'Including the version prefix, e.g. http://gpu1:8000/v1',
    }),
    model: Type.String({ minLength: 1, description: 'The model name the upstream knows.' }),
    api_key: Type.Optional(Type.String({ description: 'Prefer api_key_env.' })),
    api_key_env: Type.Optional(Type.String({ description: 'Environment variable holding the upstream key.' })),
    tokenize_url: Type.Optional(
      Type.String({
        pattern: '^https?://',
        description: "The upstream's /tokenize URL (vLLM's or llama.cpp server's).",
      }),
    ),
    tokenizer_api: Type.Optional(
      Type.Union([Type.Literal('auto'), Type.Literal('vllm'), Type.Literal('llama-server'), Type.Literal('none')], {
        description:
          'Shape of /tokenize: vllm ({model, messages}), llama-server (/apply-template, then {content}), none; default auto (found by the first call; without tokenize_url, <origin>/tokenize is tried once).',
      }),
    ),
    tokenizer: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'A Hugging Face tokenizer.json (or its folder, with tokenizer_config.json) to count tokens when there is no tokenize_url.',
      }),
    ),
    max_context: Type.Integer({ minimum: 256, default: 32768, description: "The upstream model's context window." }),
    max_output: Type.Integer({ minimum: 1, default: 8192, description: 'Largest completion to ask for.' }),
    tools: Type.Boolean({ default: true, description: 'The upstream model takes function tools.' }),
    thinking: Type.Boolean({ default: false, description: 'The upstream model thinks (reasoning_content).' }),
    json: Type.Boolean({ default: true, description: 'The upstream model can answer in JSON mode.' }),
    think_tags: Type.Optional(
      Type.Boolean({
        description:
          'Split reasoning left in content as <think>...</think> (llama.cpp server with a template it reads no reasoning from); default: on when thinking is.',
      }),
    ),
    json_mode: Type.Optional(
      Type.Union([Type.Literal('json_schema'), Type.Literal('json_object')], {
        description:
          'How JSON mode is asked for: json_schema with an open object schema (default; llama.cpp server ignores a bare json_object) or json_object.',
      }),
    ),
    vision: Type.Boolean({
      default: false,
      description:
        'The upstream model takes images and video. Media URLs are fetched by the server (chat.media_max_bytes) and sent to it inline, as data: URLs.',
    }),
    thinking_control: Type.Optional(
      // How the thinking switch reaches the upstream: chat_template_kwargs.enable_thinking (vLLM,
      // SGLang, llama.cpp server) and/or reasoning_effort values (Ollama: disabled = "none").
      Type.Object(
        {
          chat_template_kwargs: Type.Optional(Type.Boolean()),
          reasoning_effort: Type.Optional(
            Type.Object({ enabled: Type.Optional(Type.String()), disabled: Type.Optional(Type.String()) }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    reasoning_field: Type.Optional(
      Type.Union([Type.Literal('reasoning_content'), Type.Literal('reasoning'), Type.Literal('none')], {
        description: "Field carrying earlier turns' reasoning upstream; default reasoning_content.",
      }),
    ),
    max_tokens_field: Type.Optional(
      Type.Union([Type.Literal('max_tokens'), Type.Literal('max_completion_tokens')], {
        description: 'Hosted reasoning models want max_completion_tokens; default max_tokens.',
      }),
    ),
    tool_call_ids: Type.Optional(
      Type.Union([Type.Literal('generate'), Type.Literal('upstream')], {
        description:
          '`upstream` passes the upstream ids through (for upstreams that check them); default our call_ ids.',
      }),
    ),
    stream: Type.Optional(
      Type.Boolean({ description: 'Ask the upstream for SSE (default true); false for upstreams that cannot stream.' }),
    ),
    extra_body: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Fields merged into every request body.' }),
    ),
    headers: Type.Optional(
      Type.Record(Type.String(), Type.String(), { description: 'Headers sent with every request.' }),
    ),
    timeouts: Type.Optional(
      Type.Object(
        {
          connect_ms: Type.Optional(Type.Integer({ minimum: 1, description: 'TCP/TLS connect; default 10000.' })),
          headers_ms: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: 'Until the reply headers (a non-stream reply sends them at its end); default 300000.',
            }),
          ),
          idle_ms: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: 'Longest silence between two upstream bytes (covers prefill); default 300000.',
            }),
          ),
          keep_alive_ms: Type.Optional(
            Type.Integer({
              minimum: 1,
              description:
                "An idle connection is kept this long for the next request; default 2000 (under llama.cpp server's and uvicorn's 5 s).",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    limits: Type.Optional(
      Type.Object(
        {
          max_event_bytes: Type.Optional(
            Type.Integer({ minimum: 1024, description: 'One SSE event of a streamed reply; default 1048576 (1 MiB).' }),
          ),
          max_json_bytes: Type.Optional(
            Type.Integer({ minimum: 1024, description: 'One JSON reply (stream: false); default 16777216 (16 MiB).' }),
          ),
          max_reply_bytes: Type.Optional(
            Type.Integer({ minimum: 1024, description: 'A whole streamed reply; default 67108864 (64 MiB).' }),
          ),
        },
        {
          additionalProperties: false,
          description: 'Past a bound the call ends as a 1234 naming it (a network_error chunk once streaming).',
        },
      ),
    ),
    connections: Type.Optional(
      Type.Integer({ minimum: 1, description: 'Keep-alive connections to the upstream; default 256.' }),
    ),
  },
  { additionalProperties: false },
);

export const openAICompatibleFactory = defineChatEngine({
  schema: OpenAICompatibleDeployment,
  async create(o, context) {
    const t = o.timeouts;
    const ctl = o.thinking_control;
    return createOpenAICompatibleEngine({
      baseUrl: o.base_url,
      model: o.model,
      apiKey: o.api_key,
      capabilities: {
        tools: o.tools,
        thinking: o.thinking,
        json: o.json,
        vision: o.vision,
        maxContext: o.max_context,
        maxOutput: o.max_output,
      },
      tokenizeUrl: o.tokenize_url,
      tokenizerApi: o.tokenizer_api,
      tokenCounter: o.tokenizer
        ? new HfTokenCounter(path.resolve(context.configDir, o.tokenizer), context.tokenizerQueueSize)
        : undefined,
      thinking: ctl && { chatTemplateKwargs: ctl.chat_template_kwargs, reasoningEffort: ctl.reasoning_effort },
      reasoningField: o.reasoning_field,
      maxTokensField: o.max_tokens_field,
      toolCallIds: o.tool_call_ids,
      stream: o.stream,
      jsonMode: o.json_mode,
      thinkTags: o.think_tags,
      extraBody: o.extra_body,
      headers: o.headers,
      timeouts: t && {
        connectMs: t.connect_ms,
        headersMs: t.headers_ms,
        idleMs: t.idle_ms,
        keepAliveMs: t.keep_alive_ms,
      },
      connections: o.connections,
      limits: o.limits && {
        maxEventBytes: o.limits.max_event_bytes,
        maxJsonBytes: o.limits.max_json_bytes,
        maxReplyBytes: o.limits.max_reply_bytes,
      },
      logger: context.log,
    });
  },
});
