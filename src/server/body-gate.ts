import type { FastifyInstance, RouteOptions } from 'fastify';
import { malformedRequest } from '../errors/errors.js';
import { declaresBody } from './unread-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Media types the route reads a body of; `application/json` unless it says otherwise. */
    contentTypes?: readonly string[];
  }
}

const JSON_ONLY: readonly string[] = ['application/json'];

/** Which body limit a route gets when it sets none: the first prefix that matches its URL. */
export interface BodyLimitRule {
  prefix: string;
  limit: number;
}

const mediaType = (header: string): string => (header.split(';', 1)[0] ?? '').trim().toLowerCase();

/** A JSON object schema at the top (the body schemas of every route are). */
function wantsObject(schema: unknown): boolean {
  return typeof schema === 'object' && schema !== null && (schema as { type?: unknown }).type === 'object';
}

/**
 * What reaches a route's parser and validator. Every route has a body limit (its own, or the
 * rule's for its URL, never a parser's); a body in a media type the route does not take is a 415
 * before a byte of it is read; a body that is not an object (a Buffer from another parser, a JSON
 * string or array) never meets an object schema, whose checks would walk it element by element.
 */
export function installBodyGate(app: FastifyInstance, rules: readonly BodyLimitRule[], fallback: number): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.bodyLimit !== undefined) return;
    const url = route.url ?? '';
    route.bodyLimit = rules.find((r) => url.startsWith(r.prefix))?.limit ?? fallback;
  });

  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (!declaresBody(request)) return done(null, payload);
    if (request.method === 'GET' || request.method === 'HEAD') {
      const error = `Request body is larger than the limit of 0 bytes: ${request.method} takes no body`;
      return done(malformedRequest(error, { status: 413 }), payload);
    }
    const accepted = request.routeOptions.config.contentTypes ?? JSON_ONLY;
    const header = request.headers['content-type'];
    const type = header === undefined ? '' : mediaType(header);
    if (accepted.includes(type)) return done(null, payload);
    const sent = header === undefined ? 'none' : header.slice(0, 100);
    done(malformedRequest(`Content-Type must be ${accepted.join(' or ')}, not ${sent}`, { status: 415 }), payload);
  });

  app.addHook('preValidation', (request, _reply, done) => {
    const body: unknown = request.body;
    if (body === undefined || !wantsObject(request.routeOptions.schema?.body)) return done();
    if (typeof body === 'object' && body !== null && !Array.isArray(body) && !Buffer.isBuffer(body)) return done();
    done(malformedRequest('Request body must be a JSON object'));
  });
}
