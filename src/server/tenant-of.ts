import type { FastifyRequest } from 'fastify';

/**
 * Whose turn an identified request waits in: its account's, then its key's (util/fair-queue.ts
 * groups by the part before `/`); the key alone when it has no account.
 */
export function tenantOf(request: FastifyRequest): string {
  const key = request.apiKey!.id;
  return request.keyAccount ? `${request.keyAccount.accountId}/${key}` : key;
}
