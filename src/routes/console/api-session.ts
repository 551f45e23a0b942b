import type { FastifyInstance } from 'fastify';
import { conflictingFields, missingField } from '../../errors/errors.js';
import { principalView } from '../../services/accounts/principal.js';
import type { PlatformServices } from '../../services/platform-services.js';
import { principalOf } from './principal-of.js';
import { PasswordBody, SignInBody } from './schemas.js';
import { clearSessionCookie, setSessionCookie } from './session-cookie.js';

const hide = { hide: true };
const SIGN_IN_BODY_LIMIT = 8 * 1024;

/** Sign in (admin key, or email and password), who am I, sign out. */
export async function sessionRoutes(scope: FastifyInstance, services: PlatformServices): Promise<void> {
  scope.post(
    '/session',
    // Read before anyone is signed in: an admin key, an email and a password fit in 8 KiB.
    { schema: { ...hide, body: SignInBody }, config: { signedOut: true }, bodyLimit: SIGN_IN_BODY_LIMIT },
    async (request, reply) => {
      const body = request.body as { admin_key?: string; email?: string; password?: string };
      let opened: Awaited<ReturnType<typeof services.accounts.signInAdmin>>;
      if (body.admin_key !== undefined) {
        if (body.email !== undefined || body.password !== undefined) {
          throw conflictingFields('admin_key cannot be sent together with email and password');
        }
        opened = await services.accounts.signInAdmin(body.admin_key, request.ip);
      } else {
        if (body.email === undefined) throw missingField('email');
        if (body.password === undefined) throw missingField('password');
        opened = await services.accounts.signInAccount(body.email, body.password, request.ip);
      }
      setSessionCookie(request, reply, opened.token, opened.session.expiresAt);
      const active = await services.accounts.resume(opened.token);
      return {
        principal: principalView(active!.principal),
        csrf_token: opened.session.csrfToken,
        expires_at: Math.floor(opened.session.expiresAt / 1000),
      };
    },
  );

  scope.get('/session', { schema: hide }, async (request) => {
    const active = request.consoleSession!;
    return {
      principal: principalView(principalOf(request)),
      csrf_token: active.session.csrfToken,
      expires_at: Math.floor(active.session.expiresAt / 1000),
    };
  });

  scope.delete('/session', { schema: hide }, async (request, reply) => {
    await services.accounts.signOut(request.consoleSession!, request.ip);
    clearSessionCookie(request, reply);
    return { signed_out: true };
  });

  scope.post('/password', { schema: { ...hide, body: PasswordBody } }, async (request) => {
    const body = request.body as { current_password: string; new_password: string };
    await services.accounts.changePassword(
      request.consoleSession!,
      body.current_password,
      body.new_password,
      request.ip,
    );
    return { changed: true };
  });
}
