import { Type } from '@sinclair/typebox';
/** How long a key's lists and note may be. */
export const POLICY_BOUNDS = { listItems: 100, itemLength: 128, description: 1000 } as const;

const { listItems, itemLength, description } = POLICY_BOUNDS;

/** A key's allowlists, expiry and note as `/admin` and the console take them (services/keys/policy-input.ts). */
export const KeyPolicyFields = {
  models: Type.Optional(
    Type.Array(Type.String({ maxLength: itemLength }), {
      maxItems: listItems,
      description: 'Model codes or patterns (`gen-4.5*`) the key may call; empty = every model.',
    }),
  ),
  expires_at: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 40 }), Type.Null()], {
      description: 'When the key stops working: Unix seconds or an RFC 3339 time; null = never.',
    }),
  ),
  allowed_ips: Type.Optional(
    Type.Array(Type.String({ maxLength: itemLength }), {
      maxItems: listItems,
      description: 'CIDRs the key may be used from (IPv4 or IPv6); empty = anywhere.',
    }),
  ),
  description: Type.Optional(Type.String({ maxLength: description, description: 'A note on the key.' })),
};

/** How long the secret a roll replaces keeps working: up to 30 days. */
export const RollKeyBody = Type.Object(
  {
    grace_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 30 * 86_400,
        description: 'Seconds the replaced secret is still accepted (default 0: refused at once).',
      }),
    ),
  },
  { additionalProperties: false },
);
