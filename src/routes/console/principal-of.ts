import type { FastifyRequest } from 'fastify';
import { authenticationFailed, forbidden } from '../../errors/errors.js';
import type { ActiveSession } from '../../services/accounts/account-service.js';
import type { Principal } from '../../services/accounts/principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession: ActiveSession | undefined;
  }
  interface FastifyContextConfig {
    /** A console route that needs no session (signing in). */
    signedOut?: boolean;
    /**
     * What only the admin does on this console route ("manages the search index"): anyone else is
     * refused (403) by the session hook, before a byte of the body is read.
     */
    adminOnly?: string;
  }
}

/** The signed-in principal of a console request; the session hook has guaranteed there is one. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.consoleSession) throw authenticationFailed('Not signed in to the console');
  return request.consoleSession.principal;
}

export function requireAdmin(request: FastifyRequest): void {
  if (principalOf(request).kind !== 'admin') throw forbidden('Only the admin manages accounts');
}
