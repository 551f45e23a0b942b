import type { FastifyInstance } from 'fastify';
import type { Tracer } from '../telemetry/tracer.js';

/**
 * A server span per request (HTTP semantic conventions), continuing the caller's trace when it sent a
 * `traceparent`; the operation's handler runs inside it (app/api-scope.ts), so engine, reader, search
 * and image spans are its children. Installed only when tracing is on: off, no hook exists.
 */
export function installTracing(app: FastifyInstance, tracer: Tracer): void {
  app.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    const query = request.url.indexOf('?');
    const span = tracer.startSpan(route ? `${request.method} ${route}` : request.method, {
      kind: 'server',
      incoming: request.headers,
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'url.path': query < 0 ? request.url : request.url.slice(0, query),
        'url.scheme': request.protocol,
        'client.address': request.ip,
        'user_agent.original': request.headers['user-agent'],
        'gen_platform.request_id': request.id,
      },
    });
    request.traceSpan = span;
    reply.raw.once('close', () => {
      const status = reply.raw.headersSent ? reply.raw.statusCode : 499;
      span.setAttributes({
        'http.response.status_code': status,
        'gen_platform.operation': request.routeOptions.config?.operation,
        'gen_platform.key_id': request.apiKey?.id,
        'gen_platform.error_code': request.errorCode,
        'gen_ai.request.model': request.usage?.model,
      });
      // Server spans fail on 5xx only (HTTP semantic conventions); a client's mistake is not ours.
      if (status >= 500) span.markError(String(status), `HTTP ${status}`);
      span.end();
    });
    done();
  });
}
