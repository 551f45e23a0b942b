import { Type } from '@sinclair/typebox';
import { POLICY_BOUNDS } from './key-policy.js';

const limit = (max: number, what: string) =>
  Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: max }), Type.Null()], {
      description: `${what}; 0 = no limit, null = the configured default (\`accounts.*\`).`,
    }),
  );

/** An account's own policy as `/admin` and the console take it: a field left out keeps its value. */
export const AccountPolicyBody = Type.Object(
  {
    concurrent: limit(100_000, 'Requests in flight shared by all keys of the account'),
    requests_per_minute: limit(10_000_000, 'Requests per minute shared by all keys of the account'),
    max_keys: limit(100_000, 'Active keys the account may hold'),
    models: Type.Optional(
      Type.Union(
        [
          Type.Array(Type.String({ maxLength: POLICY_BOUNDS.itemLength }), {
            maxItems: POLICY_BOUNDS.listItems,
          }),
          Type.Null(),
        ],
        {
          description:
            'Model codes or patterns (`gen-4.5*`) every key of the account is held to (a key may only narrow them); empty or null = every model.',
        },
      ),
    ),
    windows: Type.Optional(
      Type.Union(
        [
          Type.Array(
            Type.Object(
              {
                requests: Type.Integer({ minimum: 1, maximum: 1_000_000_000 }),
                hours: Type.Number({ exclusiveMinimum: 0, maximum: 24 * 366 }),
              },
              { additionalProperties: false },
            ),
            { maxItems: 8 },
          ),
          Type.Null(),
        ],
        {
          description:
            'Usage windows every key of the account counts towards together (`[{requests: 5000, hours: 5}]`; one more gets 1308; a key may only narrow them); [] = none, null = the configured default (`accounts.windows`).',
        },
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Window = Type.Object({ requests: Type.Integer(), hours: Type.Number() });

const Numbers = Type.Object({
  concurrent: Type.Integer(),
  requests_per_minute: Type.Integer(),
  max_keys: Type.Integer(),
  models: Type.Array(Type.String()),
  windows: Type.Array(Window),
});
const Own = Type.Object({
  concurrent: Type.Union([Type.Integer(), Type.Null()]),
  requests_per_minute: Type.Union([Type.Integer(), Type.Null()]),
  max_keys: Type.Union([Type.Integer(), Type.Null()]),
  models: Type.Array(Type.String()),
  windows: Type.Union([Type.Array(Window), Type.Null()]),
});

/** What an account's keys share: its own settings (null = default) and what is in effect. */
export const AccountPolicyReply = Type.Object({
  account_id: Type.String(),
  own: Own,
  effective: Numbers,
  active_keys: Type.Integer(),
});
