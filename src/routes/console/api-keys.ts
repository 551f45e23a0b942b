import type { FastifyInstance } from 'fastify';
import type { NewConsoleKey } from '../../services/accounts/key-access.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { principalOf } from './principal-of.js';
import { CreateKeyBody, IdParams } from './schemas.js';

const hide = { hide: true };

/** The keys page: list, create (the key is in this answer only), revoke; each within the principal's own keys. */
export async function keyRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get('/keys', { schema: hide }, async (request) => ({
    data: await services.keyAccess.list(principalOf(request)),
  }));

  scope.post('/keys', { schema: { ...hide, body: CreateKeyBody } }, async (request) => {
    const body = request.body as Omit<NewConsoleKey, 'accountId'> & { account_id?: string };
    const { key, view } = await services.keyAccess.create(
      principalOf(request),
      { name: body.name.trim(), endpoints: body.endpoints, limits: body.limits, accountId: body.account_id },
      request.ip,
    );
    return { ...view, key };
  });

  scope.post('/keys/:id/revoke', { schema: { ...hide, params: IdParams } }, async (request) => {
    const { id } = request.params as { id: string };
    await services.keyAccess.revoke(principalOf(request), id, request.ip);
    const [view] = (await services.keyAccess.list(principalOf(request))).filter((k) => k.id === id);
    return view;
  });
}
