import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OwnDatabase, OwnPostgres, ownPostgresUnavailable } from '../helpers/own-postgres.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The whole app on PostgreSQL through real outages: its connections terminated under load (on a
 * database of this file's own), and a cluster of its own stopped and started again. Meanwhile a
 * request that needs the database is answered 503 / 1305 with Retry-After, never a 500 or a hang;
 * one that does not (a cached key and an upstream chat) is served; /health says what is down.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chat = { model: 'gen-4.6', max_tokens: 4, messages: [{ role: 'user', content: 'hi' }] };

let upstream: SlowUpstream;
beforeAll(async () => {
  upstream = await startSlowUpstream({ chunks: 2, delayMs: 1 });
});
afterAll(async () => {
  await upstream?.close();
});

describe('connections terminated under load', () => {
  let db: OwnDatabase;
  let t: TestApp;

  beforeAll(async () => {
    db = await OwnDatabase.create();
    t = await createTestApp({ ...upstreamModels(upstream.baseUrl), database: { url: db.url } });
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('keeps answering: 200 or 503 / 1305, never a 500, and recovers by itself', async () => {
    const statuses = new Map<string, number>();
    let stop = false;
    let n = 0;
    const worker = async () => {
      while (!stop) {
        // A request id makes every call need the database (its claim).
        const res = await t.post('/paas/v4/chat/completions', { ...chat, request_id: `r-${n++}-${Math.random()}` });
        const label = `${res.status}/${res.body['code'] ?? ''}`;
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        if (res.status === 503) expect(res.headers['retry-after']).toBeDefined();
      }
    };
    const workers = [worker(), worker(), worker()];
    for (let i = 0; i < 3; i++) {
      await sleep(300);
      await db.terminate();
    }
    await sleep(300);
    stop = true;
    await Promise.all(workers);
    for (const label of statuses.keys()) expect(['200/', '503/1305']).toContain(label);
    expect(statuses.get('200/')).toBeGreaterThan(10);
    const after = await t.post('/paas/v4/chat/completions', { ...chat, request_id: 'after-the-cuts' });
    expect(after.status).toBe(200);
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.json()).toMatchObject({ status: 'ok', ready: true, dependencies: { database: { state: 'up' } } });
  });
});

describe.skipIf(ownPostgresUnavailable() !== undefined)('a cluster stopped and started again', () => {
  let cluster: OwnPostgres;
  let t: TestApp;

  beforeAll(async () => {
    cluster = await OwnPostgres.start();
    t = await createTestApp({
      ...upstreamModels(upstream.baseUrl),
      database: { url: cluster.url, pool_timeout_seconds: 2, retry_ms: 200 },
      metrics: { enabled: true },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await cluster?.destroy();
  });

  it('answers 503 / 1305 while the database is down, serves cached keys, and comes back', async () => {
    expect((await t.post('/paas/v4/chat/completions', chat)).status).toBe(200); // the key is cached now
    cluster.stopServer();

    const started = Date.now();
    const needsDb = await t.post('/paas/v4/chat/completions', { ...chat, request_id: 'during-the-outage' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(needsDb.status).toBe(503);
    expect(needsDb.body['code']).toBe(1305);
    expect(needsDb.body['message']).toMatch(/^The database is unavailable \(.+\); retry shortly$/);
    expect(needsDb.headers['retry-after']).toBe('2');

    // The key was read before the outage: a call that needs nothing else of the database is served.
    const cached = await t.post('/paas/v4/chat/completions', chat);
    expect(cached.status, JSON.stringify(cached.body)).toBe(200);

    const ready = await t.app.inject({ method: 'GET', url: '/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['retry-after']).toBeDefined();
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'degraded',
      ready: false,
      dependencies: { database: { state: 'down', backend: 'postgres' } },
    });

    cluster.startServer();
    let back = false;
    for (let i = 0; i < 40 && !back; i++) {
      back = (await t.post('/paas/v4/chat/completions', { ...chat, request_id: `after-${i}` })).status === 200;
      if (!back) await sleep(250);
    }
    expect(back).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
    const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(/gen_platform_dependency_errors_total\{dependency="database",kind="unavailable"\} [1-9]/);
    expect(metrics).toMatch(/gen_platform_dependency_reconnects_total\{dependency="database"\} [1-9]/);
  }, 60_000);

  it('waits at start-up for a database that is not up yet', async () => {
    cluster.stopServer();
    const starting = createTestApp({
      ...upstreamModels(upstream.baseUrl),
      database: { url: cluster.url, connect_timeout_seconds: 30 },
    });
    await sleep(1500);
    cluster.startServer();
    const late = await starting;
    expect((await late.post('/paas/v4/chat/completions', chat)).status).toBe(200);
    await late.close();
  }, 60_000);
});
