import type { FastifyInstance } from 'fastify';
import type { PlatformServices } from '../../services/platform-services.js';
import { accountRoutes } from './api-accounts.js';
import { auditRoutes } from './api-audit.js';
import { billingRoutes } from './api-billing.js';
import { keyRoutes } from './api-keys.js';
import { platformRoutes } from './api-platform.js';
import { sessionRoutes } from './api-session.js';
import { usageRoutes } from './api-usage.js';
import './principal-of.js';
import { authenticationFailed, forbidden } from '../../errors/errors.js';
import { CSRF_HEADER, sessionToken } from './session-cookie.js';

/** `/console/api`: the console's JSON API, authenticated by the session cookie plus a CSRF header. */
export async function consoleApi(scope: FastifyInstance, { services }: { services: PlatformServices }): Promise<void> {
  scope.decorateRequest('consoleSession', undefined);
  scope.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (request.routeOptions.config.signedOut) return;
    const active = await services.accounts.resume(sessionToken(request));
    if (!active) throw authenticationFailed('Not signed in to the console, or the session has expired');
    // Every state-changing request proves it comes from the console's own page: the token is in
    // the session and was handed to that page only, so another site cannot forge it.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      const sent = request.headers[CSRF_HEADER];
      if (!services.accounts.csrfMatches(active.session, typeof sent === 'string' ? sent : undefined)) {
        throw forbidden(`CSRF check failed: send the session's token in the ${CSRF_HEADER} header`);
      }
    }
    const adminOnly = request.routeOptions.config.adminOnly;
    if (adminOnly !== undefined && active.principal.kind !== 'admin') throw forbidden(`Only the admin ${adminOnly}`);
    request.consoleSession = active;
  });
  await sessionRoutes(scope, services);
  await keyRoutes(scope, services);
  await accountRoutes(scope, services);
  await usageRoutes(scope, services);
  await platformRoutes(scope, services);
  await auditRoutes(scope, services);
  await billingRoutes(scope, services);
}
