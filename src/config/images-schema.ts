import { type Static, Type } from '@sinclair/typebox';

/** `images:` image generation: the worker pool, its queue and the task leases. */
export const ImagesConfigSchema = Type.Object(
  {
    concurrency: Type.Integer({
      minimum: 1,
      maximum: 256,
      default: 2,
      description: 'Image jobs this process runs on its engines at once (sync calls and async tasks together).',
    }),
    queue_size: Type.Integer({
      minimum: 0,
      default: 100,
      description:
        'Jobs that may wait for a worker: async tasks not yet taken up, and sync calls waiting for a slot. Past it: 503, code 1305.',
    }),
    queue_per_key: Type.Integer({
      minimum: 1,
      default: 20,
      description:
        'Async tasks one key may have waiting in the queue; past it that key gets 429, code 1302, and other keys still queue.',
    }),
    queue_per_account: Type.Integer({
      minimum: 1,
      default: 50,
      description:
        'Async tasks the keys of one account may have waiting in the queue together; past it: 429, code 1302.',
    }),
    max_attempts: Type.Integer({
      minimum: 1,
      maximum: 20,
      default: 3,
      description: 'Times a task is started before it ends FAIL, when its worker keeps dying (kill -9, crash).',
    }),
    lease_seconds: Type.Integer({
      minimum: 3,
      maximum: 55,
      default: 20,
      description:
        'A running task is renewed every third of this; a task not renewed for this long (its worker died) is taken up again.',
    }),
    poll_interval_ms: Type.Integer({
      minimum: 50,
      default: 1000,
      description: 'How often idle workers look for tasks that other processes queued or that dead workers left.',
    }),
    timeout_seconds: Type.Integer({
      minimum: 1,
      default: 600,
      description: 'Longest one generation may take on its engine before it fails (1234).',
    }),
    max_image_bytes: Type.Integer({
      minimum: 1024,
      default: 64 * 1024 * 1024,
      description: 'Largest answer read from an image engine (JSON with base64, or a fetched image URL).',
    }),
  },
  { additionalProperties: false, default: {} },
);
export type ImagesConfig = Static<typeof ImagesConfigSchema>;

/** `safety:` the content-safety policy (docs/safety.md). */
export const SafetyConfigSchema = Type.Object(
  {
    block_terms: Type.Array(Type.String({ minLength: 1 }), {
      default: [],
      description:
        'Terms refused in prompts (code 1301, nothing generated): case-insensitive, whole words; terms in scripts written without spaces (CJK, Thai) match anywhere.',
    }),
    guard_model: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          'A chat model code (under `models`) whose deployment is a guard model, e.g. Llama Guard or Qwen3Guard; its verdict maps to levels 0-3.',
      }),
    ),
    guard_max_tokens: Type.Integer({
      minimum: 1,
      maximum: 256,
      default: 32,
      description: 'Longest verdict read from the guard model.',
    }),
    on_guard_error: Type.Union([Type.Literal('refuse'), Type.Literal('allow')], {
      default: 'refuse',
      description:
        '`refuse`: a guard model that fails refuses the request (1234); `allow`: the request goes on and reports level 2.',
    }),
  },
  { additionalProperties: false, default: {} },
);
export type SafetyConfig = Static<typeof SafetyConfigSchema>;
