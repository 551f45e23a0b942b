import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

type Json = Record<string, unknown>;
/** A stand-in upstream that is down: a call the allowlists let through fails upstream, never with 1220. */
const UPSTREAM = { engine: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', model: 'stand-in' };

/**
 * Model allowlists (a key's and its account's) name model codes, as `/models` lists them. On the
 * Anthropic endpoint a Claude name is resolved through `anthropic.models` first, and the code it
 * resolves to is what the allowlists check: a key limited to gen-4.5 reaches gen-4.5 by a Claude name
 * mapped to it, and never gen-4.6 by one mapped there.
 */
describe('Anthropic endpoint: model allowlists check the code a Claude name resolves to', () => {
  let t: TestApp;
  let limited: string;
  let accountKey: string;

  const send = async (url: string, model: string, key: string): Promise<{ status: number; body: Json }> => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: { model, max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] },
    });
    return { status: res.statusCode, body: res.json() as Json };
  };
  const message = (model: string, key = limited) => send('/api/anthropic/v1/messages', model, key);
  const count = (model: string, key = limited) => send('/api/anthropic/v1/messages/count_tokens', model, key);
  const get = async (url: string, key = limited) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
    return { status: res.statusCode, body: res.json() as Json };
  };

  beforeAll(async () => {
    t = await createTestApp({
      models: {
        'gen-4.6': { deployments: [UPSTREAM] },
        'gen-4.5': { deployments: [UPSTREAM] },
        'gen-4.5-air': { deployments: [UPSTREAM] },
      },
      anthropic: {
        models: [
          { match: 'claude-*haiku*', model: 'gen-4.5' },
          { match: 'claude-*sonnet*', model: 'gen-4.6' },
        ],
        default_model: '',
      },
    });
    const made = await t.services.keys.create({
      name: 'limited',
      endpoints: ['coding'],
      policy: { models: ['gen-4.5'] },
    });
    limited = made.key;
    // A key of an account whose allowlist is gen-4.5*; the key itself allows everything.
    const held = await t.services.keys.create({ name: 'held', endpoints: ['coding'] });
    accountKey = held.key;
    await t.services.store.accounts.createAccount({
      id: 'acc-allow',
      name: 'Allow',
      email: 'allow@example.com',
      passwordHash: 'x',
      createdAt: Date.now(),
      disabledAt: undefined,
    });
    await t.services.store.accounts.setKeyOwner(held.record.id, 'acc-allow');
    await t.services.accountPolicies.set('acc-allow', { models: ['gen-4.5*'] });
  });
  afterAll(() => t.close());

  const refused = (r: { status: number; body: Json }, text: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.body).toEqual({
      type: 'error',
      error: { type: 'permission_error', message: expect.stringContaining(text) },
    });
    expect((r.body['error'] as Json)['message']).toContain('(code 1220)');
  };
  const admitted = (r: { status: number; body: Json }) => {
    expect(r.status, JSON.stringify(r.body)).not.toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('1220');
  };

  it('refuses a Claude name that maps to a code outside the key’s allowlist, naming both', async () => {
    refused(await message('claude-sonnet-4-5'), 'claude-sonnet-4-5 (served by gen-4.6)');
    refused(await count('claude-sonnet-4-5'), 'claude-sonnet-4-5 (served by gen-4.6)');
    refused(await message('gen-4.6'), 'model gen-4.6: it is limited to gen-4.5');
  });

  it('admits a Claude name that maps to an allowed code, and the code itself', async () => {
    admitted(await message('claude-haiku-4-5'));
    admitted(await count('claude-3-5-haiku-latest'));
    admitted(await message('gen-4.5'));
  });

  it('refuses a name that maps to no code as an unknown model (1211), 404 as Anthropic does, before any allowlist', async () => {
    const r = await message('claude-unknown-1');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error', message: expect.stringContaining('(code 1211)') },
    });
  });

  it('applies the account’s allowlist the same way', async () => {
    refused(await message('claude-sonnet-4-5', accountKey), 'its account is limited to gen-4.5*');
    admitted(await message('claude-haiku-4-5', accountKey));
  });

  it('lists only the allowed codes, and refuses one model by a name mapped outside them', async () => {
    const list = await get('/api/anthropic/v1/models');
    expect((list.body['data'] as Json[]).map((m) => m['id'])).toEqual(['gen-4.5']);
    const byAccount = await get('/api/anthropic/v1/models', accountKey);
    expect((byAccount.body['data'] as Json[]).map((m) => m['id'])).toEqual(['gen-4.5', 'gen-4.5-air']);
    refused(await get('/api/anthropic/v1/models/claude-sonnet-4-5'), 'claude-sonnet-4-5 (served by gen-4.6)');
    const haiku = await get('/api/anthropic/v1/models/claude-haiku-4-5');
    expect(haiku.status, JSON.stringify(haiku.body)).toBe(200);
    expect(haiku.body).toMatchObject({ id: 'claude-haiku-4-5', type: 'model' });
  });
});
