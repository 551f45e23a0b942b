import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';
import { internalError, malformedRequest, overloaded, unknownApi } from '../errors/errors.js';
import { describeFault, storeFault } from '../stores/faults.js';
import { sendApiError } from './error-body.js';
import { validationToApiError } from './validation-error.js';

/** Fastify's own request errors, as the API's 1210 with a message a client can act on. */
function frameworkError(err: FastifyError, bodyLimit: number | undefined): ApiError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return malformedRequest(`Request body is not valid JSON: ${err.message}`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return malformedRequest('Request body is empty: send a JSON object');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return malformedRequest('Content-Type must be application/json', { status: 415 });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return malformedRequest(`Request body is larger than the limit of ${bodyLimit} bytes`, { status: 413 });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return malformedRequest('Request body length does not match its Content-Length header');
  }
  if (err instanceof SyntaxError) return malformedRequest(`Request body is not valid JSON: ${err.message}`);
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return malformedRequest(err.message);
  return undefined;
}

/** A body that is not an object: because it was sent as another media type (Fastify parses text/plain), or as JSON. */
function notObjectMessage(contentType: string | undefined): string {
  if (contentType && !/^\s*application\/json\s*(;|$)/i.test(contentType)) {
    return `Content-Type must be application/json, not ${contentType.slice(0, 100)}`;
  }
  return 'Request body must be a JSON object';
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof ApiError) return sendApiError(reply, err);
    if (err.validation) {
      const bodyNotObject =
        err.validationContext === 'body' && err.validation.some((e) => e.instancePath === '' && e.keyword === 'type');
      if (bodyNotObject)
        return sendApiError(reply, malformedRequest(notObjectMessage(request.headers['content-type'])));
      return sendApiError(reply, validationToApiError(err.validation, err.validationContext ?? 'body'));
    }
    // The limit that applied is the route's own (body-gate.ts gives every route one).
    const known = frameworkError(err, request.routeOptions.bodyLimit);
    if (known) return sendApiError(reply, known);
    // A database that cannot be reached or written is the operator's outage, not a bug: 503 with
    // the cause and a time to come back, never a 500 (docs/architecture.md, "Outages").
    const fault = storeFault(err);
    if (fault) {
      request.log.warn({ err }, `database fault: ${fault.cause}`);
      return sendApiError(reply, overloaded(describeFault(fault), { retryAfter: fault.kind === 'full' ? 30 : 2 }));
    }
    request.log.error({ err }, 'internal error');
    return sendApiError(reply, internalError(request.id));
  });

  app.setNotFoundHandler((request, reply) =>
    sendApiError(reply, unknownApi(`API does not exist: ${request.method} ${request.url.split('?')[0]}`)),
  );
}
