import type { FastifyReply, FastifyRequest } from 'fastify';

export const COOKIE_NAME = 'gp_console';
export const CSRF_HEADER = 'x-csrf-token';

/** Longer than any token this server sets (43 characters): such a cookie is no session, whatever it holds. */
const MAX_TOKEN_LENGTH = 256;

/**
 * The session token from the request's cookies, if any. The server's tokens are base64url, so a
 * value that is not (a broken %-escape, quotes, an oversized value) is simply no session: the
 * request is then answered as signed out, never with an error of its own.
 */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header === '') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || part.slice(0, eq).trim() !== COOKIE_NAME) continue;
    const value = part.slice(eq + 1).trim();
    return value.length > 0 && value.length <= MAX_TOKEN_LENGTH && /^[A-Za-z0-9_-]+$/.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * HttpOnly (scripts never see it), SameSite=Strict (no cross-site request carries it), scoped to
 * /console (the API under /paas never receives it), Secure whenever the client came over HTTPS.
 */
function cookie(request: FastifyRequest, value: string, maxAgeSeconds: number): string {
  const parts = [`${COOKIE_NAME}=${value}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (request.protocol === 'https') parts.push('Secure');
  return parts.join('; ');
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expiresAt: number) {
  reply.header('set-cookie', cookie(request, token, Math.max(0, Math.round((expiresAt - Date.now()) / 1000))));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.header('set-cookie', cookie(request, '', 0));
}
