import type { FastifyInstance } from 'fastify';
import type { PlatformServices } from '../../services/platform-services.js';
import { consoleApi } from './api.js';
import { consoleStatic } from './static.js';

/** The console: its page at `/console` and its JSON API at `/console/api`. Registered without a prefix. */
export async function consoleRoutes(
  scope: FastifyInstance,
  { services }: { services: PlatformServices },
): Promise<void> {
  if (!services.config.console.enabled) return;
  await scope.register(consoleStatic);
  await scope.register(consoleApi, { prefix: '/console/api', services });
}
