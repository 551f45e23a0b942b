import { type Static, Type } from '@sinclair/typebox';
import { FairGate } from '../../util/fair-gate.js';

/**
 * Keys every chat deployment takes, whatever its engine: a concurrency cap for an upstream that
 * serves only so many requests at once. Requests beyond it wait for their turn, fairly across
 * keys (util/fair-queue.ts), instead of piling onto the upstream first come, first served.
 */
export const DeploymentCapSchema = Type.Object(
  {
    max_concurrent: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'Requests sent to this deployment at once, by every model code that uses it; more wait their turn, key by key. Default: no cap.',
      }),
    ),
    max_waiting: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Requests that may wait for it (with `max_concurrent`); one more gets 1305. Default 16 × max_concurrent.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DeploymentCap = Static<typeof DeploymentCapSchema>;

export const DEPLOYMENT_CAP_KEYS = Object.keys(DeploymentCapSchema.properties) as (keyof DeploymentCap)[];

/** The gate that holds a capped deployment to its cap; undefined without a cap. */
export function capGate(cap: DeploymentCap): FairGate | undefined {
  if (cap.max_concurrent === undefined) return undefined;
  return new FairGate(cap.max_concurrent, {
    limit: cap.max_waiting ?? 16 * cap.max_concurrent,
    fullMessage: 'The server is overloaded (too many requests waiting for the model deployment), please retry later',
    retryAfter: 1,
  });
}
