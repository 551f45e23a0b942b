import { Type } from '@sinclair/typebox';
import { KeyPolicyFields } from '../../api/key-policy.js';

/** Request schemas of the console's JSON API (`/console/api`). */
export const SignInBody = Type.Object(
  {
    admin_key: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    email: Type.Optional(Type.String({ minLength: 3, maxLength: 254 })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  },
  { additionalProperties: false },
);

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, pattern: '\\S' }),
    endpoints: Type.Optional(
      Type.Array(Type.Union([Type.Literal('general'), Type.Literal('coding')]), { minItems: 1, uniqueItems: true }),
    ),
    limits: Type.Optional(
      Type.Object(
        {
          concurrent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
          requests_per_minute: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000 })),
        },
        { additionalProperties: false },
      ),
    ),
    account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...KeyPolicyFields,
  },
  { additionalProperties: false },
);

export const UpdateKeyBody = Type.Object(
  {
    name: Type.Optional(CreateKeyBody.properties.name),
    endpoints: CreateKeyBody.properties.endpoints,
    ...KeyPolicyFields,
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CreateAccountBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128, pattern: '\\S' }),
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$' }),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const UsageQuery = Type.Object(
  { days: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'Days back from today, 1 to 366.' })) },
  { additionalProperties: false },
);

export const PasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 1024 }),
    new_password: Type.String({ minLength: 10, maxLength: 1024 }),
  },
  { additionalProperties: false },
);
