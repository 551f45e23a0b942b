import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformServices } from '../../services/platform-services.js';
import { openStreams } from './open-streams.js';
import { PlatformMetrics } from './platform-metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus metrics when `metrics.enabled`. */
    platformMetrics: PlatformMetrics | undefined;
  }
}

/**
 * Metrics and the per-request log line. Both hang on the response's 'close' (streams included,
 * which Fastify's onResponse skips once hijacked), and neither adds a hook when switched off, so
 * a disabled one costs nothing per request. `GET /metrics` is served here unless `metrics.port`
 * gives it a server of its own (serve.ts starts that one).
 */
export function installObservability(app: FastifyInstance, services: PlatformServices): void {
  const { config } = services;
  const metrics = config.metrics.enabled
    ? new PlatformMetrics(
        {
          openStreams: () => openStreams.count,
          usage: () => services.usage.usageStats(),
          engineLoad: () => services.engines?.load() ?? [],
          deploymentLoad: () => services.engines?.deploymentLoad() ?? [],
          dependencies: () => {
            const { status } = services.store;
            return [{ dependency: status.name, errors: status.errors, reconnects: status.reconnects, up: status.up }];
          },
          billing: () => ({ stats: services.billing.stats, currency: services.billing.currency }),
        },
        { processMetrics: true },
      )
    : undefined;
  app.decorate('platformMetrics', metrics);
  // Time to first token and between tokens: engine calls are watched only when metrics are on.
  if (metrics) services.engines?.observe({ timings: metrics });
  const logRequests = config.log.requests;
  if (metrics || logRequests) {
    app.addHook('onRequest', (request, reply, done) => {
      const started = performance.now();
      reply.raw.once('close', () => {
        const seconds = (performance.now() - started) / 1000;
        if (metrics) observe(metrics, request, reply, seconds);
        if (logRequests) logRequest(request, reply, seconds);
      });
      done();
    });
  }
  if (metrics && config.metrics.port === undefined) {
    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      reply.type(metrics.registry.contentType);
      return metrics.registry.metrics();
    });
  }
}

function operationOf(request: FastifyRequest): string {
  return request.routeOptions.config?.operation ?? request.routeOptions.url ?? 'unmatched';
}

function observe(metrics: PlatformMetrics, request: FastifyRequest, reply: FastifyReply, seconds: number): void {
  const usage = request.usage;
  const status = reply.raw.headersSent ? reply.raw.statusCode : 499;
  metrics.observe(operationOf(request), status, request.errorCode ?? 0, seconds);
  if (usage?.model) metrics.countTokens(usage.model, usage.promptTokens, usage.completionTokens);
}

function logRequest(request: FastifyRequest, reply: FastifyReply, seconds: number): void {
  request.log.info(
    {
      method: request.method,
      url: request.url,
      operation: operationOf(request),
      status: reply.raw.headersSent ? reply.raw.statusCode : 499,
      code: request.errorCode,
      key: request.apiKey?.id,
      ms: Math.round(seconds * 1e4) / 10,
    },
    'request',
  );
}
