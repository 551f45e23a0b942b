import type { FastifyInstance } from 'fastify';
import { forbidden } from '../../errors/errors.js';
import { auditView } from '../../services/audit/audit-service.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { AuditQuerySchema, auditQuery } from '../admin-audit.js';
import { principalOf } from './principal-of.js';

/** The Audit page's data: the admin's only, the same query as `GET /admin/audit`. */
export async function auditRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.get('/audit', { schema: { hide: true, querystring: AuditQuerySchema } }, async (request) => {
    if (principalOf(request).kind !== 'admin') throw forbidden('Only the admin reads the audit log');
    const records = await services.audit.list(auditQuery(request.query as Record<string, string | undefined>));
    return { data: records.map(auditView) };
  });
}
