import type { FastifyInstance } from 'fastify';

export const ADMIN_KEY = 'console-test-admin-key-0123456789';

export interface ConsoleClient {
  cookie: string;
  csrf: string;
  call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    options?: { csrf?: string | null; cookie?: string | null },
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, unknown> }>;
}

/** Signs in through `POST /console/api/session` and keeps the cookie and CSRF token, as the page does. */
export async function signIn(app: FastifyInstance, credentials: Record<string, string>): Promise<ConsoleClient> {
  const res = await app.inject({ method: 'POST', url: '/console/api/session', payload: credentials });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const csrf = (res.json() as { csrf_token: string }).csrf_token;
  return {
    cookie,
    csrf,
    async call(method, url, body, options = {}) {
      const headers: Record<string, string> = {};
      const c = options.cookie === undefined ? cookie : options.cookie;
      const t = options.csrf === undefined ? csrf : options.csrf;
      if (c) headers['cookie'] = c;
      if (t && method !== 'GET') headers['x-csrf-token'] = t;
      const r = await app.inject({
        method,
        url,
        headers,
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      return { status: r.statusCode, body: r.json() as Record<string, unknown>, headers: r.headers };
    },
  };
}
