import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { KeyUsageReply } from '../api/billing.js';
import { ErrorReply } from '../api/error-reply.js';
import { KeyPolicyFields, RollKeyBody } from '../api/key-policy.js';
import { KeyLimitsSchema } from '../config/schema.js';
import { forbidden, invalidRequest, notFound } from '../errors/errors.js';
import type { KeyChange } from '../services/keys/key-admin.js';
import { toKeyView } from '../services/keys/key-service.js';
import { applyPolicy, type PolicyInput } from '../services/keys/policy-input.js';
import type { PlatformServices } from '../services/platform-services.js';
import { keyScope } from '../stores/money.js';
import type { Endpoint } from '../stores/types.js';
import { adminAccountPolicyRoutes } from './admin-account-policy.js';
import { adminAuditRoutes } from './admin-audit.js';
import { adminMoneyRoutes } from './admin-money.js';
import { actorOf } from './audit-actor.js';
import { budgetView, keyUsageView } from './money-views.js';

/** A key's own limits as the admin gives them: a limit left out is the configured default's. */
const OwnLimits = Type.Object(
  {
    concurrent: Type.Optional(Type.Integer({ minimum: 0, description: 'Requests in flight; 0 = no limit.' })),
    requests_per_minute: Type.Optional(Type.Integer({ minimum: 0, description: 'Requests per minute; 0 = no limit.' })),
    windows: Type.Optional(
      Type.Array(KeyLimitsSchema.properties.windows.items, {
        description: 'Usage windows, e.g. `[{requests: 1000, hours: 5}]`.',
      }),
    ),
  },
  { additionalProperties: false },
);
const KeyIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 128 }),
  endpoints: Type.Optional(
    Type.Array(Type.Union([Type.Literal('general'), Type.Literal('coding')]), { minItems: 1, uniqueItems: true }),
  ),
  limits: Type.Optional(OwnLimits),
  ...KeyPolicyFields,
  account: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 254,
      description: 'Id or email of the console account that holds the key.',
    }),
  ),
});
const UpdateKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    endpoints: CreateKeyBody.properties.endpoints,
    limits: Type.Optional(
      Type.Union([OwnLimits, Type.Null()], { description: "The key's own limits; null = the configured defaults." }),
    ),
    ...KeyPolicyFields,
  },
  { additionalProperties: false, minProperties: 1 },
);
const UsageQuery = Type.Object({
  since: Type.Optional(Type.String({ pattern: '^[0-9]{1,12}$', description: 'Unix seconds.' })),
});

/** Key management for operators and the console: `/admin/keys`, authenticated by an admin key. */
export async function adminRoutes(scope: FastifyInstance, { services }: { services: PlatformServices }): Promise<void> {
  scope.addHook('onRequest', async (request) => {
    const key = await services.accounts.authenticateAdmin(request.headers.authorization, request.ip);
    if (key.role !== 'admin') throw forbidden('This API key has no permission for key management');
    request.apiKey = key;
  });
  const common = { tags: ['admin'], security: [{ bearer: [] }] };
  const findKey = async (id: string) => {
    const key = await services.keys.get(id);
    if (!key) throw notFound(`API key ${id} does not exist`);
    return key;
  };

  scope.get('/keys', { schema: { ...common, summary: 'List API keys' } }, async () => ({
    data: (await services.keys.list()).map(toKeyView),
  }));

  scope.post(
    '/keys',
    { schema: { ...common, summary: 'Create an API key (shown once)', body: CreateKeyBody } },
    async (request) => {
      const { account, models, expires_at, allowed_ips, description, ...body } = request.body as {
        name: string;
        endpoints?: Endpoint[];
        limits?: Partial<typeof KeyLimitsSchema.static>;
        account?: string;
      } & PolicyInput;
      const policy = applyPolicy(undefined, { models, expires_at, allowed_ips, description });
      // Without `account` the key is the admin's, as keys made by the CLI are.
      const holder = account === undefined ? undefined : await services.accounts.findAccount(account);
      if (account !== undefined && !holder) throw invalidRequest(`Invalid account: no account ${account}`);
      const limits = body.limits && { ...services.config.limits, ...body.limits };
      const { key, record } = await services.keyAdmin.create(actorOf(request), {
        ...body,
        limits,
        policy,
        accountId: holder?.id,
      });
      return { ...toKeyView(record), ...(holder ? { account: holder.id } : {}), key };
    },
  );

  scope.get('/keys/:id', { schema: { ...common, summary: 'One API key', params: KeyIdParams } }, async (request) =>
    toKeyView(await findKey((request.params as { id: string }).id)),
  );

  scope.patch(
    '/keys/:id',
    {
      schema: {
        ...common,
        summary: "Change an API key's name, endpoints, limits, models, expiry, allowed addresses or description",
        params: KeyIdParams,
        body: UpdateKeyBody,
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const before = await findKey(id);
      const { name, endpoints, limits, models, expires_at, allowed_ips, description } = request.body as {
        name?: string;
        endpoints?: Endpoint[];
        limits?: Partial<typeof KeyLimitsSchema.static> | null;
      } & PolicyInput;
      const policy = applyPolicy(before.policy, { models, expires_at, allowed_ips, description });
      const change: KeyChange = { policy: policy ?? null };
      if (name !== undefined) change.name = name;
      if (endpoints !== undefined) change.endpoints = endpoints;
      // null returns the key to the configured limits; a partial set is filled from them.
      if (limits !== undefined) change.limits = limits && { ...services.config.limits, ...limits };
      const after = await services.keyAdmin.update(actorOf(request), id, change);
      return toKeyView(after ?? (await findKey(id)));
    },
  );

  scope.post(
    '/keys/:id/roll',
    {
      schema: {
        ...common,
        summary:
          'Roll an API key: a new secret (shown once), same id and settings; the old one works for grace_seconds',
        params: KeyIdParams,
        body: Type.Optional(RollKeyBody),
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      await findKey(id);
      const grace = (request.body as { grace_seconds?: number } | undefined)?.grace_seconds ?? 0;
      const rolled = await services.keyAdmin.roll(actorOf(request), id, grace * 1000);
      if (!rolled) throw invalidRequest(`API key ${id} is revoked: a revoked key cannot be rolled`);
      return { ...toKeyView(rolled.record), key: rolled.key };
    },
  );

  const revoke = async (request: FastifyRequest) => {
    const { id } = request.params as { id: string };
    await findKey(id);
    await services.keyAdmin.revoke(actorOf(request), id);
    return toKeyView(await findKey(id));
  };
  scope.delete('/keys/:id', { schema: { ...common, summary: 'Revoke an API key', params: KeyIdParams } }, revoke);
  scope.post('/keys/:id/revoke', { schema: { ...common, summary: 'Revoke an API key', params: KeyIdParams } }, revoke);

  scope.get(
    '/keys/:id/usage',
    {
      schema: {
        ...common,
        summary: 'Usage totals of an API key, with what its calls cost',
        params: KeyIdParams,
        querystring: UsageQuery,
        response: { 200: KeyUsageReply, '4xx': ErrorReply, '5xx': ErrorReply },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const since = Number((request.query as { since?: string }).since ?? 0);
      await findKey(id);
      await services.usage.flush();
      const totals = await services.store.usageTotals(id, since * 1000);
      const budget = await services.money.budget(keyScope(id));
      const budgetReply = budget ? await budgetView(services.billing, keyScope(id), budget) : null;
      return keyUsageView(id, since, totals, services.billing.currency, budgetReply);
    },
  );

  await adminAuditRoutes(scope, services);
  await adminAccountPolicyRoutes(scope, services);
  await adminMoneyRoutes(scope, services);
}
