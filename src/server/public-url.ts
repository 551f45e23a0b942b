import type { FastifyRequest } from 'fastify';

/**
 * The absolute URL of a path on this server, as the client reached it: `server.public_url` when
 * configured (behind a proxy that rewrites hosts), else the request's own scheme and host.
 */
export function publicUrl(request: FastifyRequest, publicBase: string | undefined, pathname: string): string {
  const base = publicBase ? publicBase.replace(/\/+$/, '') : `${request.protocol}://${request.host}`;
  return base + pathname;
}
