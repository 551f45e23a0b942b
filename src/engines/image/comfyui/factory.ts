import { Type } from '@sinclair/typebox';
import { defineImageEngine } from '../factory.js';
import { backendHttp } from '../http.js';
import { QualityOverrides } from '../quality.js';
import { createComfyEngine } from './engine.js';
import { loadWorkflow } from './workflow.js';

const Ref = (what: string) =>
  Type.Object(
    { node: Type.String({ minLength: 1 }), input: Type.String({ minLength: 1 }) },
    { additionalProperties: false, description: `Node id and input name that receive the ${what}.` },
  );

const ComfyDeployment = Type.Object(
  {
    engine: Type.Literal('comfyui', { description: 'ComfyUI, with an API-format workflow.' }),
    base_url: Type.String({ pattern: '^https?://', description: 'e.g. http://gpu1:8188' }),
    workflow: Type.String({
      minLength: 1,
      description: 'API-format workflow JSON ("Save (API)"), relative to the config file.',
    }),
    inputs: Type.Object(
      {
        prompt: Ref('prompt (e.g. a CLIPTextEncode text)'),
        negative_prompt: Type.Optional(Ref('negative prompt')),
        width: Ref('width (e.g. EmptyLatentImage)'),
        height: Ref('height'),
        seed: Ref('seed (e.g. KSampler)'),
        steps: Type.Optional(Ref('steps, from quality')),
        sampler: Type.Optional(Ref('sampler name, from quality')),
        scheduler: Type.Optional(Ref('scheduler, from quality')),
        cfg: Type.Optional(Ref('CFG scale, from quality')),
      },
      { additionalProperties: false },
    ),
    output_node: Type.Optional(
      Type.String({ minLength: 1, description: 'Node whose image is the result; default the first with one.' }),
    ),
    quality: QualityOverrides,
    negative_prompt: Type.Optional(Type.String({ description: 'Negative prompt of every job (when mapped).' })),
    poll_interval_ms: Type.Integer({ minimum: 50, default: 500, description: 'How often /history is read.' }),
    api_key: Type.Optional(Type.String({ description: 'Sent as a Bearer token (behind an authenticating proxy).' })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

export const comfyFactory = defineImageEngine({
  schema: ComfyDeployment,
  async create(o, context) {
    const workflow = loadWorkflow(o.workflow, context.configDir, o.inputs, 'comfyui deployment');
    const http = backendHttp(o.base_url, context.log, {
      headers: o.headers,
      apiKey: o.api_key,
      maxBytes: context.maxImageBytes,
      timeoutMs: context.timeoutMs,
      outbound: context.outbound,
    });
    return createComfyEngine(
      {
        baseUrl: o.base_url,
        workflow,
        inputs: o.inputs,
        outputNode: o.output_node,
        quality: o.quality,
        negativePrompt: o.negative_prompt,
        pollMs: o.poll_interval_ms,
      },
      http,
    );
  },
});
