import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/schema.js';
import { listModels } from '../../src/services/models/model-list.js';
import { deployment, type E2eServer, startServer } from '../e2e/support.js';

/** GET {base}/models: the OpenAI list shape that OpenAI-ecosystem tools call first. */

let server: E2eServer;
let codingKey: string;
beforeAll(async () => {
  server = await startServer(
    (paths) => ({ 'gen-4.6': deployment(paths.programmed), 'gen-5': deployment(paths.random) }),
    {
      listen: true,
    },
  );
  codingKey = await server.t.newKey({ endpoints: ['coding'] });
});
afterAll(async () => {
  await server?.close();
});

const get = (url: string, key: string | null = server.t.key) =>
  server.t.app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });

describe('GET /models', () => {
  it('lists every model code served, in the OpenAI shape with each state', async () => {
    const res = await get('/paas/v4/models');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=UTF-8');
    const body = res.json() as { object: string; data: Record<string, unknown>[] };
    expect(body.object).toBe('list');
    expect(body.data.map((m) => m['id'])).toEqual(['gen-4.6', 'gen-5']);
    for (const m of body.data) {
      expect(m).toMatchObject({ object: 'model', owned_by: 'gen-platform', type: 'chat', state: 'not_loaded' });
      expect(Number.isInteger(m['created'])).toBe(true);
    }
  });

  it('turns a model ready once its engine has opened', async () => {
    const chat = await server.inject('/paas/v4/chat/completions', {
      model: 'gen-4.6',
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 4,
    });
    expect(chat.status).toBe(200);
    const data = (await get('/paas/v4/models')).json().data as { id: string; state: string }[];
    expect(data.find((m) => m.id === 'gen-4.6')?.state).toBe('ready');
    expect(data.find((m) => m.id === 'gen-5')?.state).toBe('not_loaded');
  });

  it('answers on the coding base and /v1 too, with keys scoped per endpoint', async () => {
    expect((await get('/coding/paas/v4/models', codingKey)).statusCode).toBe(200);
    expect((await get('/v1/models')).json().object).toBe('list');
    expect((await get('/coding/paas/v4/models')).json()).toMatchObject({ code: 1220 });
    expect((await get('/paas/v4/models', codingKey)).json()).toMatchObject({ code: 1220 });
  });

  it('needs a key', async () => {
    const res = await get('/paas/v4/models', null);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 1001, error: { code: '1001' } });
  });

  it.each(['/paas/v4', '/v1', '/coding/paas/v4'])("works with the openai SDK's models.list() on %s", async (base) => {
    const apiKey = base.startsWith('/coding') ? codingKey : server.t.key;
    const client = new OpenAI({ baseURL: `${server.base}${base}`, apiKey, maxRetries: 0 });
    const ids: string[] = [];
    for await (const model of await client.models.list()) {
      expect(model.object).toBe('model');
      expect(model.owned_by).toBe('gen-platform');
      ids.push(model.id);
    }
    expect(ids).toEqual(['gen-4.6', 'gen-5']);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await server.t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    expect(doc.paths['/paas/v4/models']?.['get']?.operationId).toBe('models.list');
    expect(doc.paths['/v1/models']?.['get']?.operationId).toBe('models.list.v1');
  });
});

describe('listModels', () => {
  it('lists the configured image models as ready, after the chat models', () => {
    const config = {
      models: { 'gen-image': { deployments: [] }, 'gen-4.6': { deployments: [] } },
    } as unknown as Config;
    expect(listModels(undefined, config)).toEqual([
      expect.objectContaining({ id: 'gen-image', object: 'model', type: 'image', state: 'ready' }),
    ]);
  });
});
