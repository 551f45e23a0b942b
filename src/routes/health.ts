import type { FastifyInstance } from 'fastify';
import { HealthCheck } from '../services/health/health-check.js';
import type { PlatformServices } from '../services/platform-services.js';

/**
 * `GET /health` (liveness and each dependency's state; always 200 while the process answers) and
 * `GET /health/ready` (readiness for load balancers: 503 with `Retry-After` while the database
 * cannot be used). Neither needs a key. `status` stays as before: `ok` when all is well.
 */
export async function healthRoutes(app: FastifyInstance, options: { services: PlatformServices }): Promise<void> {
  const { services } = options;
  const check = new HealthCheck({
    store: services.store,
    limiter: services.limiter,
    engines: services.engines,
    probeMs: Math.min(2000, services.config.database.pool_timeout_seconds * 1000),
  });
  app.get('/health', { schema: { hide: true } }, async () => check.report());
  app.get('/health/ready', { schema: { hide: true } }, async (_request, reply) => {
    const report = await check.report();
    if (!report.ready) reply.code(503).header('retry-after', '2');
    return report;
  });
}
