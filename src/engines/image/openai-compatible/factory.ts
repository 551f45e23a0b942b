import { Type } from '@sinclair/typebox';
import { defineImageEngine } from '../factory.js';
import { backendHttp } from '../http.js';
import { createOpenAIImageEngine } from './engine.js';

const OpenAIImageDeployment = Type.Object(
  {
    engine: Type.Literal('openai-compatible', {
      description: 'LocalAI, stable-diffusion.cpp server, or a hosted OpenAI-style images API.',
    }),
    base_url: Type.String({
      pattern: '^https?://',
      description: 'Including the version prefix, e.g. http://localai:8080/v1',
    }),
    model: Type.String({ minLength: 1, description: 'The model name the upstream knows.' }),
    api_key: Type.Optional(Type.String()),
    response_format: Type.Union([Type.Literal('b64_json'), Type.Literal('url'), Type.Literal('omit')], {
      default: 'b64_json',
      description: '`omit` for hosted models that refuse the field (they answer b64_json).',
    }),
    send_quality: Type.Boolean({
      default: false,
      description: 'Pass `quality` (hd/standard) upstream; off for servers that do not know the field.',
    }),
    extra_body: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Fields merged into every request body (e.g. steps for LocalAI).',
      }),
    ),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

export const openAIImageFactory = defineImageEngine({
  schema: OpenAIImageDeployment,
  async create(o, context) {
    const http = backendHttp(`${o.base_url} (${o.model})`, context.log, {
      headers: o.headers,
      apiKey: o.api_key,
      maxBytes: context.maxImageBytes,
      timeoutMs: context.timeoutMs,
      outbound: context.outbound,
    });
    return createOpenAIImageEngine(
      {
        baseUrl: o.base_url,
        model: o.model,
        responseFormat: o.response_format,
        sendQuality: o.send_quality,
        extraBody: o.extra_body,
      },
      http,
    );
  },
});
