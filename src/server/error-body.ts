import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../api/error-reply.js';
import type { ApiError } from '../errors/api-error.js';
import { JSON_TYPE } from './json-type.js';

/** The error body of a wire that is not this API's own (set per route: `config.errorShape`). */
export type ErrorShape = (err: ApiError) => object;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers errors in this shape instead of the API's own (docs/wire.md, "Errors"). */
    errorShape?: ErrorShape;
  }
}

/**
 * The spec's flat error object plus the nested form that live-platform and OpenAI-style clients read
 * (docs/wire.md, "Errors"; its schema is src/api/error-reply.ts).
 */
export function errorBody(code: number, message: string): ErrorReply {
  return { code, message, error: { code: String(code), message } };
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  return reply.send(errorReplyOf(reply, err));
}

/**
 * Sets the reply's status and headers for `err` and gives its body: for sendApiError, and for an
 * onSend hook that must turn a reply into an error itself (an error passed to its `done` skips the
 * error handler when the reply already was one, and would not be shaped as the API's).
 */
export function errorReplyOf(reply: FastifyReply, err: ApiError): ErrorReply | object {
  reply.request.errorCode = err.code;
  if (!err.retryable) reply.header('x-should-retry', 'false');
  if (err.retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfter))));
  // Set here, not by the onSend hook: the router's own refusals (frameworkErrors) skip the hooks.
  reply.code(err.status).type(JSON_TYPE);
  // A wire of another API (the Responses API) answers in its own error shape.
  const shape = reply.request.routeOptions.config?.errorShape;
  return shape === undefined ? errorBody(err.code, err.message) : shape(err);
}
