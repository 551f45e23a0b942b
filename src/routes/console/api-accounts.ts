import type { FastifyInstance } from 'fastify';
import { AccountPolicyBody } from '../../api/account-policy.js';
import { toAccountView } from '../../services/accounts/principal.js';
import type { AccountPolicyInput } from '../../services/keys/account-policy-admin.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { actorOf } from '../audit-actor.js';
import { requireAdmin } from './principal-of.js';
import { CreateAccountBody, IdParams } from './schemas.js';

const hide = { hide: true };

/** Account holders and what their keys share, managed by the admin only. */
export async function accountRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get('/accounts', { schema: hide }, async (request) => {
    requireAdmin(request);
    return { data: (await services.accounts.listAccounts()).map(toAccountView) };
  });

  scope.post('/accounts', { schema: { ...hide, body: CreateAccountBody } }, async (request) => {
    requireAdmin(request);
    const { account, password } = await services.accounts.createAccount(
      request.body as { name: string; email: string },
      actorOf(request),
    );
    return { ...toAccountView(account), password };
  });

  scope.post('/accounts/:id/disable', { schema: { ...hide, params: IdParams } }, async (request) => {
    requireAdmin(request);
    const { id } = request.params as { id: string };
    return toAccountView(await services.accounts.disableAccount(id, actorOf(request)));
  });

  scope.get('/accounts/policies', { schema: hide }, async (request) => {
    requireAdmin(request);
    return { data: await services.accountPolicyAdmin.list() };
  });

  scope.get('/accounts/:id/policy', { schema: { ...hide, params: IdParams } }, async (request) => {
    requireAdmin(request);
    return services.accountPolicyAdmin.view((request.params as { id: string }).id);
  });

  scope.patch(
    '/accounts/:id/policy',
    { schema: { ...hide, params: IdParams, body: AccountPolicyBody } },
    async (request) => {
      requireAdmin(request);
      return services.accountPolicyAdmin.change(
        actorOf(request),
        (request.params as { id: string }).id,
        request.body as AccountPolicyInput,
      );
    },
  );
}
