import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import type { Config } from '../config/schema.js';
import { adminRoutes } from '../routes/admin.js';
import { ALL_OPERATIONS } from '../routes/all-operations.js';
import { consoleRoutes } from '../routes/console/index.js';
import { fileRoutes } from '../routes/files.js';
import { healthRoutes } from '../routes/health.js';
import { quotaLimitRoutes } from '../routes/monitor/quota-limit.js';
import { installBodyDepth } from '../server/body-depth.js';
import { installBodyGate } from '../server/body-gate.js';
import { API_TITLE, DOCS_PAGE, SPEC_VERSION } from '../server/docs-page.js';
import { sendApiError } from '../server/error-body.js';
import { installErrorHandlers } from '../server/error-handler.js';
import { newPlatformId } from '../server/ids.js';
import { JSON_TYPE } from '../server/json-type.js';
import { installObservability } from '../server/metrics/observability.js';
import { installTracing } from '../server/tracing.js';
import { closeUnusedConnectionsOnClose } from '../server/unused-connections.js';
import type { PlatformServices } from '../services/platform-services.js';
import { type ApiScopeOptions, apiScope } from './api-scope.js';
import { mcpScope } from './mcp-scope.js';

import '../server/request-state.js';
import { invalidRequest, malformedRequest } from '../errors/errors.js';

/**
 * Fastify's own hop count trusts nothing (it cannot vouch for the peer): a configured count is
 * the operator's statement that every connection comes through that many proxies, so the first
 * `hops` addresses from the socket back are proxies.
 */
function trustProxy(
  setting: Config['server']['trust_proxy'],
): false | string[] | ((addr: string, i: number) => boolean) {
  if (typeof setting === 'number') return (_addr, i) => i < setting;
  return setting;
}

/** The API's bases: where each group of operations is mounted, and for which key endpoint. */
const API_BASES = [
  {
    prefix: '/paas/v4',
    endpoint: 'general',
    mounts: { paas: '', agents: '/v1' },
    documented: ['paas'],
    apiAlias: true,
  },
  { prefix: '/v1', endpoint: 'general', mounts: { agents: '' }, documented: ['agents'], apiAlias: false },
  {
    prefix: '/coding/paas/v4',
    endpoint: 'coding',
    mounts: { paas: '', agents: '/v1' },
    documented: [],
    apiAlias: true,
  },
  // Anthropic's Messages API, where Claude Code and the Anthropic SDKs look (`<base>/v1/messages`):
  // its keys' endpoints are configured (`anthropic.endpoints`), the key may come as `x-api-key`.
  {
    prefix: '/anthropic',
    endpoint: 'coding',
    mounts: { anthropic: '/v1' },
    documented: ['anthropic'],
    apiAlias: true,
    keyHeader: 'x-api-key',
    requestIdHeader: 'request-id',
  },
] as const satisfies readonly (Omit<ApiScopeOptions, 'operations' | 'services'> & {
  prefix: string;
  apiAlias: boolean;
})[];

export interface BuildAppOptions {
  services: PlatformServices;
  /** The process's logger; none in tests. */
  logger?: FastifyBaseLogger;
}

/** Builds the whole HTTP app without listening: tests use `inject`, `serve` calls `listen`. */
export async function buildApp({ services, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    bodyLimit: config.server.body_limit,
    // A slow or silent client cannot hold a connection: headers, whole request, idle keep-alive
    // and idle connection each have a limit (Node checks them every `connectionsCheckingInterval`).
    requestTimeout: config.server.request_timeout_seconds * 1000,
    keepAliveTimeout: config.server.keep_alive_timeout_seconds * 1000,
    connectionTimeout: config.server.idle_timeout_seconds * 1000,
    http: {
      headersTimeout: Math.min(config.server.headers_timeout_seconds, config.server.request_timeout_seconds) * 1000,
      connectionsCheckingInterval: Math.min(5000, config.server.headers_timeout_seconds * 1000),
    },
    trustProxy: trustProxy(config.server.trust_proxy),
    genReqId: () => newPlatformId(),
    // Fastify's two lines per request are replaced by one, only when `log.requests` (observability.ts).
    logController: new LogController({ disableRequestLogging: true }),
    // A path parameter over 100 characters or a broken %-escape is refused by the router itself;
    // answer it in the API's error body like every other refusal.
    frameworkErrors: (err, _request, reply) => {
      const long = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const error = long
        ? invalidRequest('Invalid path: a path parameter is longer than 100 characters')
        : malformedRequest(`Malformed request: ${err.message}`);
      sendApiError(reply, error);
    },
    ajv: {
      customOptions: {
        // Validation reports, never repairs: extra properties are refused where the spec closes an
        // object, and defaults are applied per model by the services rather than by the schema.
        removeAdditional: false,
        useDefaults: false,
        // No silent retyping (`true` is not a temperature); the numbers SDKs send as strings are
        // converted field by field before validation (normalize-body.ts).
        coerceTypes: false,
        allErrors: false,
        discriminator: true,
        verbose: true,
      },
    },
  });
  app.decorate('streamStallMs', config.server.stream_stall_seconds * 1000);
  closeUnusedConnectionsOnClose(app);
  app.decorateRequest('apiKey', undefined);
  app.decorateRequest('keyAccount', undefined);
  app.decorateRequest('usage', undefined);
  app.decorateRequest('errorCode', undefined);
  app.decorateRequest('cancel', undefined);
  app.decorateRequest('commitUsage', undefined);
  app.decorateRequest('handling', undefined);
  app.decorateRequest('traceSpan', undefined);
  // docs/wire.md, "Content types" spells the JSON content type exactly; Fastify's default writes `utf-8`.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.type(JSON_TYPE);
    done(null, payload);
  });
  installErrorHandlers(app);
  // The console and /admin read small JSON bodies; the API's operations take up to `body_limit`.
  const control = config.server.control_body_limit;
  installBodyGate(
    app,
    [
      { prefix: '/console/', limit: control },
      { prefix: '/admin', limit: control },
    ],
    config.server.body_limit,
  );
  installBodyDepth(app);
  installObservability(app, services);
  if (services.tracer) installTracing(app, services.tracer);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: API_TITLE,
        version: SPEC_VERSION,
        description:
          'Tokenizer, chat completions, images, agents, reader and web search. The coding endpoint `/coding/paas/v4` mirrors `/paas/v4`; `/paas/v4/v1/agents...` are aliases of `/v1/agents...`; `/api/paas/v4` and `/api/coding/paas/v4` serve what `/paas/v4` and `/coding/paas/v4` serve.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, DOCS_PAGE);

  await app.register(healthRoutes, { services });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  for (const spec of API_BASES) {
    const base = spec.prefix === '/anthropic' ? { ...spec, endpoints: config.anthropic.endpoints } : spec;
    await app.register(apiScope, { ...base, operations: ALL_OPERATIONS, services });
    // The live platform's hosts also serve these bases under `/api` (`https://<host>/api/paas/v4`),
    // so a client configured for it changes only the host: every operation of the base, unlisted.
    if (base.apiAlias) {
      await app.register(apiScope, {
        ...base,
        prefix: `/api${base.prefix}`,
        documented: [],
        operations: ALL_OPERATIONS,
        services,
      });
    }
  }
  await app.register(mcpScope, { services });
  await app.register(quotaLimitRoutes, { services });
  await app.register(adminRoutes, { prefix: '/admin', services });
  await app.register(fileRoutes, { files: services.files });
  await app.register(consoleRoutes, { services });
  return app;
}
