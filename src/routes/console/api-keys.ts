import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { RollKeyBody } from '../../api/key-policy.js';
import type { NewConsoleKey } from '../../services/accounts/key-access.js';
import type { PolicyInput } from '../../services/keys/policy-input.js';
import type { PlatformServices } from '../../services/platform-services.js';
import type { Endpoint } from '../../stores/types.js';
import { principalOf } from './principal-of.js';
import { CreateKeyBody, IdParams, UpdateKeyBody } from './schemas.js';

const hide = { hide: true };

/** The keys page: list, create (the key is in this answer only), revoke; each within the principal's own keys. */
export async function keyRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get('/keys', { schema: hide }, async (request) => ({
    data: await services.keyAccess.list(principalOf(request)),
  }));

  scope.post('/keys', { schema: { ...hide, body: CreateKeyBody } }, async (request) => {
    const body = request.body as Omit<NewConsoleKey, 'accountId' | 'policy'> & { account_id?: string } & PolicyInput;
    const { models, expires_at, allowed_ips, description } = body;
    const { key, view } = await services.keyAccess.create(
      principalOf(request),
      {
        name: body.name.trim(),
        endpoints: body.endpoints,
        limits: body.limits,
        accountId: body.account_id,
        policy: { models, expires_at, allowed_ips, description },
      },
      request.ip,
    );
    return { ...view, key };
  });

  scope.patch('/keys/:id', { schema: { ...hide, params: IdParams, body: UpdateKeyBody } }, async (request) => {
    const { id } = request.params as { id: string };
    const { name, endpoints, ...policy } = request.body as { name?: string; endpoints?: Endpoint[] } & PolicyInput;
    return services.keyAccess.update(
      principalOf(request),
      id,
      {
        ...(name === undefined ? {} : { name: name.trim() }),
        ...(endpoints === undefined ? {} : { endpoints }),
        policy,
      },
      request.ip,
    );
  });

  scope.post(
    '/keys/:id/roll',
    { schema: { ...hide, params: IdParams, body: Type.Optional(RollKeyBody) } },
    async (request) => {
      const { id } = request.params as { id: string };
      const grace = (request.body as { grace_seconds?: number } | undefined)?.grace_seconds ?? 0;
      const { key, view } = await services.keyAccess.roll(principalOf(request), id, grace * 1000, request.ip);
      return { ...view, key };
    },
  );

  scope.post('/keys/:id/revoke', { schema: { ...hide, params: IdParams } }, async (request) => {
    const { id } = request.params as { id: string };
    await services.keyAccess.revoke(principalOf(request), id, request.ip);
    const [view] = (await services.keyAccess.list(principalOf(request))).filter((k) => k.id === id);
    return view;
  });
}
