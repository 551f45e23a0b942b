import type { FastifyReply } from 'fastify';
import type { ApiError } from '../errors/api-error.js';

export interface ErrorBody {
  code: number;
  message: string;
  error: { code: string; message: string };
}

/** The spec's flat error object plus the nested form that live-platform and OpenAI-style clients read. */
export function errorBody(code: number, message: string): ErrorBody {
  return { code, message, error: { code: String(code), message } };
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (!err.retryable) reply.header('x-should-retry', 'false');
  if (err.retryAfter !== undefined) reply.header('retry-after', String(Math.max(1, Math.ceil(err.retryAfter))));
  return reply.code(err.status).send(errorBody(err.code, err.message));
}
