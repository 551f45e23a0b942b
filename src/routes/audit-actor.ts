import type { FastifyRequest } from 'fastify';
import { actorId } from '../services/accounts/principal.js';
import { type Actor, ANONYMOUS } from '../services/audit/audit-service.js';

/**
 * Who a request acts as, for the audit log: the console session's principal, else the API key that
 * authenticated it (an admin key on `/admin`), else nobody yet; and the client's address as the
 * server sees it (`server.trust_proxy` decides whether forwarded addresses count).
 */
export function actorOf(request: FastifyRequest): Actor {
  const session = request.consoleSession;
  if (session) return { id: actorId(session.principal), address: request.ip };
  if (request.apiKey) return { id: `key:${request.apiKey.id}`, address: request.ip };
  return { id: ANONYMOUS, address: request.ip };
}
