import { Type } from '@sinclair/typebox';

/**
 * `responses:` the Responses API's stored responses (`store: true`): how long each is kept, and how
 * much any one key, and all keys together, may keep (the oldest go first when a cap is passed).
 */
export const ResponsesConfigSchema = Type.Object(
  {
    retention_days: Type.Number({
      exclusiveMinimum: 0,
      default: 30,
      description:
        'Days a stored response stays readable (`GET /responses/{id}`, `previous_response_id`); then it is deleted.',
    }),
    max_stored_mb_per_key: Type.Number({
      exclusiveMinimum: 0,
      default: 256,
      description:
        "Largest total size of one key's stored responses (their conversation and output text); past it, that key's oldest are deleted at the next purge.",
    }),
    keepalive_interval_seconds: Type.Number({
      exclusiveMinimum: 0,
      default: 10,
      description:
        'A stream sends `keepalive` when the model has said nothing for this long (a long prompt being read); it starts with `response.created` once the model begins, or after this long.',
    }),
    max_stored_mb: Type.Number({
      exclusiveMinimum: 0,
      default: 4096,
      description:
        "Largest total size of every key's stored responses together; past it, the oldest are deleted at the next purge (`database.purge_interval_seconds`).",
    }),
  },
  { additionalProperties: false, default: {} },
);
