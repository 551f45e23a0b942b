import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AccountPolicyBody, AccountPolicyReply } from '../api/account-policy.js';
import { ErrorReply } from '../api/error-reply.js';
import { notFound } from '../errors/errors.js';
import type { AccountPolicyInput } from '../services/keys/account-policy-admin.js';
import type { PlatformServices } from '../services/platform-services.js';
import { actorOf } from './audit-actor.js';

/** `/admin/accounts/{id}/policy`: the limits, model allowlist and key cap an account's keys share. */
export async function adminAccountPolicyRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  const common = { tags: ['admin'], security: [{ bearer: [] }] };
  const response = { 200: AccountPolicyReply, '4xx': ErrorReply, '5xx': ErrorReply };
  const params = Type.Object({
    id: Type.String({ minLength: 1, maxLength: 254, description: 'Account id or email.' }),
  });
  const accountId = async (idOrEmail: string) => {
    const account = await services.accounts.findAccount(idOrEmail);
    if (!account) throw notFound(`Account ${idOrEmail} does not exist`);
    return account.id;
  };

  scope.get(
    '/accounts/:id/policy',
    { schema: { ...common, summary: "An account's shared limits, model allowlist and key cap", params, response } },
    async (request) => services.accountPolicyAdmin.view(await accountId((request.params as { id: string }).id)),
  );

  scope.patch(
    '/accounts/:id/policy',
    {
      schema: {
        ...common,
        summary:
          "Change an account's shared limits, model allowlist or key cap (a field left out keeps its value; null = the configured default)",
        params,
        body: AccountPolicyBody,
        response,
      },
    },
    async (request) =>
      services.accountPolicyAdmin.change(
        actorOf(request),
        await accountId((request.params as { id: string }).id),
        request.body as AccountPolicyInput,
      ),
  );
}
