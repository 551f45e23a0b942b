import type { FastifyReply } from 'fastify';
import type { ErrorReply } from '../api/error-reply.js';
import type { ApiError } from '../errors/api-error.js';
import { JSON_TYPE } from './json-type.js';
import { bodyNotArrived } from './unread-body.js';

/** The error body of a wire that is not this API's own (set per route: `config.errorShape`). */
export type ErrorShape = (err: ApiError) => object;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers errors in this shape instead of the API's own (docs/wire.md, "Errors"). */
    errorShape?: ErrorShape;
    /** The status that API gives where it differs from this API's own (an unknown model is 404 there). */
    errorStatus?: (err: ApiError) => number;
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
  // A refusal given before the body arrived (no key, no session, a role it lacks, a rate limit, a
  // 413 or 415) does not drain it: the connection closes after the answer, so a client cannot make
  // the server read and discard what it refused. Node reads the rest of a kept-alive connection's
  // body to reach the next request; closed, it stops reading once the answer is written.
  if (bodyNotArrived(reply.request)) reply.header('connection', 'close');
  if (!err.retryable) reply.header('x-should-retry', 'false');
  if (err.retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfter))));
  // A wire of another API (the Responses API) answers in its own error shape and status.
  const config = reply.request.routeOptions.config;
  // Set here, not by the onSend hook: the router's own refusals (frameworkErrors) skip the hooks.
  reply.code(config?.errorStatus?.(err) ?? err.status).type(JSON_TYPE);
  const shape = config?.errorShape;
  return shape === undefined ? errorBody(err.code, err.message) : shape(err);
}

/**
 * The status of Anthropic's and OpenAI's APIs: a model they do not serve is 404 there (their SDKs
 * raise NotFoundError), where this API answers 400 with code 1211.
 */
export function foreignErrorStatus(err: ApiError): number {
  return err.code === 1211 ? 404 : err.status;
}
