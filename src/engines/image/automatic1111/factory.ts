import { Type } from '@sinclair/typebox';
import { defineImageEngine } from '../factory.js';
import { backendHttp } from '../http.js';
import { QualityOverrides } from '../quality.js';
import { createA1111Engine } from './engine.js';

const A1111Deployment = Type.Object(
  {
    engine: Type.Literal('automatic1111', { description: 'AUTOMATIC1111, Forge or SD.Next (`--api`).' }),
    base_url: Type.String({ pattern: '^https?://', description: 'The web UI, e.g. http://gpu1:7860' }),
    quality: QualityOverrides,
    negative_prompt: Type.Optional(Type.String({ description: 'Negative prompt sent with every job.' })),
    extra_body: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Fields merged into every txt2img body (e.g. override_settings).',
      }),
    ),
    api_key: Type.Optional(Type.String({ description: 'Sent as a Bearer token (behind an authenticating proxy).' })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

export const a1111Factory = defineImageEngine({
  schema: A1111Deployment,
  async create(o, context) {
    const http = backendHttp(o.base_url, context.log, {
      headers: o.headers,
      apiKey: o.api_key,
      maxBytes: context.maxImageBytes,
      timeoutMs: context.timeoutMs,
      outbound: context.outbound,
    });
    return createA1111Engine(
      { baseUrl: o.base_url, quality: o.quality, negativePrompt: o.negative_prompt, extraBody: o.extra_body },
      http,
    );
  },
});
