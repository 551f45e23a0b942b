import type { FastifyRequest } from 'fastify';

/** The request declares a body (a Content-Length other than 0, or chunks). */
export function declaresBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The request declares a body that has not all arrived: a reply now is given before it was read
 * (or part way through). An injected request has its whole body at once and no `complete` flag.
 */
export function bodyNotArrived(request: FastifyRequest): boolean {
  return request.raw.complete === false && declaresBody(request);
}
