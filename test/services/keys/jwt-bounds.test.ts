import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES, withoutEngines } from '../../api/support.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
function sdkJwt(key: string, exp: number): string {
  const [id, secret] = key.split('.') as [string, string];
  const head = b64url({ alg: 'HS256', sign_type: 'SIGN' });
  const body = b64url({ api_key: id, exp, timestamp: Date.now() });
  return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(withoutEngines({ security: { jwt_max_lifetime_seconds: 86400 } }));
});
afterAll(() => t.close());

const call = async (authorization: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: EXAMPLES.tokenizer.url,
    headers: { authorization, 'content-type': 'application/json' },
    payload: JSON.stringify(EXAMPLES.tokenizer.body),
  });
  return { status: res.statusCode, body: res.json() as { code: number; message: string } };
};

describe('signed tokens (JWT)', () => {
  it('one that lives an hour passes authentication', async () => {
    expect((await call(`Bearer ${sdkJwt(t.key, Date.now() + 3_600_000)}`)).body.code).toBe(1211);
  });

  it('one whose exp is further ahead than security.jwt_max_lifetime_seconds is refused (1002)', async () => {
    const res = await call(`Bearer ${sdkJwt(t.key, Date.now() + 10 * 365 * 86_400_000)}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(1002);
    expect(res.body.message).toContain('security.jwt_max_lifetime_seconds');
  });

  it('a signature is compared as canonical base64url: a character inserted or changed is refused', async () => {
    const token = sdkJwt(t.key, Date.now() + 3_600_000);
    const cut = token.lastIndexOf('.') + 10;
    for (const forged of [
      `${token.slice(0, cut)}!${token.slice(cut)}`,
      `${token}=`,
      `${token.slice(0, cut)}\n${token.slice(cut)}`,
    ]) {
      expect((await call(`Bearer ${forged}`)).body.code, forged).toBe(1002);
    }
  });

  it('an admin key as a signed token does not open a console session', async () => {
    const { key } = await t.services.keys.create({ name: 'ops', role: 'admin' });
    const token = sdkJwt(key, Date.now() + 3_000);
    const res = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { admin_key: token } });
    expect(res.statusCode).toBe(401);
    expect(res.json()['message']).toContain('not a signed token');
    // The key itself still signs in.
    const plain = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { admin_key: key } });
    expect(plain.statusCode).toBe(200);
  });
});
