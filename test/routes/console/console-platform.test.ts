import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlowUpstream, startSlowUpstream } from '../../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { ADMIN_KEY, type ConsoleClient, signIn } from './support.js';

describe('console API: models, the search index and playground tokens', () => {
  let t: TestApp;
  let upstream: SlowUpstream;
  let admin: ConsoleClient;
  let ada: ConsoleClient;
  beforeAll(async () => {
    upstream = await startSlowUpstream({ chunks: 2, delayMs: 1 });
    t = await createTestApp({
      security: { admin_key: ADMIN_KEY },
      models: {
        'gen-4.6': {
          deployments: [
            {
              engine: 'openai-compatible',
              base_url: upstream.baseUrl.replace('http://', 'http://user:pw@'),
              model: 'x',
            },
          ],
        },
      },
    });
    admin = await signIn(t.app, { admin_key: ADMIN_KEY });
    const { password } = await t.services.accounts.createAccount({ name: 'Ada', email: 'ada@example.test' });
    ada = await signIn(t.app, { email: 'ada@example.test', password });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  it('lists each model code with its deployments; only the admin sees where they run, never a credential', async () => {
    const mine = await admin.call('GET', '/console/api/models');
    expect(mine.status).toBe(200);
    const [model] = mine.body['data'] as Record<string, unknown>[];
    expect(model).toMatchObject({
      code: 'gen-4.6',
      type: 'chat',
      state: 'ready',
      in_flight: 0,
      deployments: [
        {
          deployment: 'gen-4.6[0]',
          engine: 'openai-compatible',
          target: upstream.baseUrl,
          state: 'ready',
          shared_by: 1,
        },
      ],
    });
    const theirs = await ada.call('GET', '/console/api/models');
    expect((theirs.body['data'] as { deployments: { target: unknown }[] }[])[0]!.deployments[0]!.target).toBeNull();
  });

  it('issues an hour-long token of the principal’s own playground key, which the API accepts', async () => {
    const first = await ada.call('POST', '/console/api/playground-token');
    expect(first.status).toBe(200);
    const { token, key_id, expires_at } = first.body as { token: string; key_id: string; expires_at: number };
    expect(expires_at - Date.now() / 1000).toBeGreaterThan(3500);
    expect(token.split('.')).toHaveLength(3);
    // One key per principal: a second token is of the same key, listed among Ada's keys.
    expect((await ada.call('POST', '/console/api/playground-token')).body['key_id']).toBe(key_id);
    const keys = (await ada.call('GET', '/console/api/keys')).body['data'] as { id: string; name: string }[];
    expect(keys.find((k) => k.id === key_id)?.name).toBe('Console playground');
    const adminToken = await admin.call('POST', '/console/api/playground-token');
    expect(adminToken.body['key_id']).not.toBe(key_id);

    const chat = await t.post(
      '/paas/v4/chat/completions',
      { model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] },
      token,
    );
    expect(chat.status).toBe(200);
    // Revoking the key ends its tokens; the next token comes from a new key.
    expect((await ada.call('POST', `/console/api/keys/${key_id}/revoke`)).status).toBe(200);
    const refused = await t.post('/paas/v4/chat/completions', { model: 'gen-4.6', messages: [] }, token);
    expect(refused.status).toBe(401);
    expect((await ada.call('POST', '/console/api/playground-token')).body['key_id']).not.toBe(key_id);
  });

  it('the token needs a session and the CSRF header', async () => {
    expect((await ada.call('POST', '/console/api/playground-token', undefined, { csrf: null })).status).toBe(403);
    expect((await ada.call('POST', '/console/api/playground-token', undefined, { cookie: null })).status).toBe(401);
  });

  it('the search index is the admin’s: an account holder is refused', async () => {
    expect((await ada.call('GET', '/console/api/search')).status).toBe(403);
    const crawl = await ada.call('POST', '/console/api/search/crawl', { url: 'https://example.com/' });
    expect(crawl.status).toBe(403);
  });

  it('validates crawls and imports, naming the field', async () => {
    const bad = await admin.call('POST', '/console/api/search/crawl', { url: 'ftp://example.com/' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/url/);
    const tooDeep = await admin.call('POST', '/console/api/search/crawl', { url: 'https://example.com/', depth: 9 });
    expect(tooDeep.status).toBe(400);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/console/api/search/import',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/x-ndjson' },
      payload: '',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: { message: expect.stringMatching(/JSONL/) } });
  });

  it('imports an upload in the background and lists its documents and progress', async () => {
    const lines = [
      { url: 'https://kb.example/a', title: 'Anchors', content: 'Heavy.' },
      { url: 'https://kb.example/b', title: 'Buoys', content: 'Floating.' },
    ];
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/api/search/import?name=kb.jsonl&collection=kb',
      headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf, 'content-type': 'application/x-ndjson' },
      payload: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'import', source: 'kb.jsonl', collection: 'kb', state: 'running' });
    let overview: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) {
      overview = (await admin.call('GET', '/console/api/search?collection=kb')).body;
      if ((overview['jobs'] as { state: string }[])[0]?.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(overview['jobs']).toMatchObject([{ state: 'done', indexed: 2, failed: 0, pending: 2 }]);
    expect(overview['collections']).toEqual([{ collection: 'kb', documents: 2 }]);
    expect((overview['documents'] as { title: string }[]).map((d) => d.title)).toEqual(['Buoys', 'Anchors']);
  });

  it('gives a collection to an account on import; an account holder can neither import nor give', async () => {
    const importAs = (who: ConsoleClient, query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/console/api/search/import?${query}`,
        headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, 'content-type': 'application/x-ndjson' },
        payload: JSON.stringify({ url: 'https://ada.example/a', title: 'Ada', content: 'Notes.' }),
      });
    expect((await importAs(ada, 'collection=ada-notes&account=ada@example.test')).statusCode).toBe(403);
    expect(await t.services.search.index.ownerOf('ada-notes')).toBeUndefined();
    const res = await importAs(admin, 'collection=ada-notes&account=ada@example.test');
    expect(res.statusCode).toBe(200);
    const found = await t.services.accounts.findAccount('ada@example.test');
    expect(await t.services.search.index.ownerOf('ada-notes')).toBe(`account:${found!.id}`);
    // No account to give it to, or no collection other than web: refused before any job starts.
    const unknown = await importAs(admin, 'collection=other&account=nobody@example.test');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: '1233' } });
    const web = await admin.call('POST', '/console/api/search/crawl', {
      url: 'https://example.com/',
      account: 'ada@example.test',
    });
    expect(web.status).toBe(400);
    expect(web.body).toMatchObject({ error: { code: '1214', message: expect.stringMatching(/account/) } });
    expect(await t.services.search.index.ownerOf('other')).toBeUndefined();
  });
});
