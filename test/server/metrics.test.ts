import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../src/server/metrics/metrics-server.js';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CHAT = '/paas/v4/chat/completions';
const chatBody = (stream: boolean) => ({
  model: 'gen-4.6',
  stream,
  messages: [{ role: 'user', content: 'hi' }],
});

/** The value of one sample line of a Prometheus text exposition, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const unlabelled = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);

describe('metrics off (the default)', () => {
  it('no /metrics route and no metrics object', async () => {
    const t = await createTestApp();
    try {
      expect(t.app.platformMetrics).toBeUndefined();
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 1222 });
    } finally {
      await t.close();
    }
  });
});

describe('metrics on', () => {
  let upstream: SlowUpstream;
  let t: TestApp;
  beforeAll(async () => {
    upstream = await startSlowUpstream({ chunks: 10, delayMs: 30 });
    t = await createTestApp({ ...upstreamModels(upstream.baseUrl), metrics: { enabled: true } });
  });
  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  it('counts requests by operation, status and API code, with latency histograms and tokens by model', async () => {
    expect((await t.post(CHAT, chatBody(false))).status).toBe(200);
    expect((await t.post(CHAT, chatBody(false), null)).status).toBe(401);
    expect((await t.post(CHAT, { model: 'gen-4.6', messages: 'nope' })).status).toBe(400);
    const text = await scrape();
    expect(text).toContain('# TYPE gen_platform_requests_total counter');
    expect(sample(text, 'gen_platform_requests_total', 'operation="chat.completions",status="200",code="0"')).toBe(1);
    expect(sample(text, 'gen_platform_requests_total', 'operation="chat.completions",status="401",code="1001"')).toBe(
      1,
    );
    expect(sample(text, 'gen_platform_requests_total', 'status="400",code="1214"')).toBe(1);
    expect(sample(text, 'gen_platform_request_duration_seconds_bucket', 'le="+Inf",operation="chat.completions"')).toBe(
      3,
    );
    expect(sample(text, 'gen_platform_tokens_total', 'model="gen-4.6",direction="out"')).toBe(10);
    expect(sample(text, 'gen_platform_tokens_total', 'model="gen-4.6",direction="in"')).toBeGreaterThan(0);
    expect(text).toContain('gen_platform_usage_records_queued');
    expect(text).toContain('gen_platform_process_resident_memory_bytes');
  });

  it('shows usage records queued and kept in the journal only, failed writes and replays', async () => {
    const store = t.services.store;
    const original = store.recordUsage;
    store.recordUsage = async () => {
      throw new Error('connection terminated');
    };
    try {
      expect((await t.post(CHAT, chatBody(false))).status).toBe(200);
      await t.services.usage.flush();
      const text = await scrape();
      expect(unlabelled(text, 'gen_platform_usage_records_queued')).toBeGreaterThanOrEqual(1);
      expect(unlabelled(text, 'gen_platform_usage_write_failures_total')).toBeGreaterThanOrEqual(1);
      expect(text).toContain('# TYPE gen_platform_usage_write_failures_total counter');
      expect(unlabelled(text, 'gen_platform_usage_records_journal_only')).toBe(0);
      expect(unlabelled(text, 'gen_platform_usage_journal_failures_total')).toBe(0);
      expect(unlabelled(text, 'gen_platform_usage_records_replayed_total')).toBe(0);
    } finally {
      store.recordUsage = original;
    }
    await t.services.usage.flush();
    expect(unlabelled(await scrape(), 'gen_platform_usage_records_queued')).toBe(0);
  });

  it('time to first token and between tokens per model, of streamed replies', async () => {
    const before = sample(await scrape(), 'gen_platform_time_to_first_token_seconds_count', 'model="gen-4.6"');
    // A reply taken whole comes whole from the upstream: no token timing.
    expect((await t.post(CHAT, chatBody(false))).status).toBe(200);
    expect(sample(await scrape(), 'gen_platform_time_to_first_token_seconds_count', 'model="gen-4.6"')).toBe(before);
    const streamed = await t.app.inject({
      method: 'POST',
      url: CHAT,
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      payload: chatBody(true),
    });
    expect(streamed.statusCode).toBe(200);
    const text = await scrape();
    const firstCount = sample(text, 'gen_platform_time_to_first_token_seconds_count', 'model="gen-4.6"')!;
    expect(firstCount).toBeGreaterThanOrEqual(1);
    // The stand-in sends 10 tokens 30 ms apart: about 30 ms between them; the first after about 30 ms.
    const betweenCount = sample(text, 'gen_platform_time_between_tokens_seconds_count', 'model="gen-4.6"')!;
    const betweenSum = sample(text, 'gen_platform_time_between_tokens_seconds_sum', 'model="gen-4.6"')!;
    expect(betweenCount).toBe(firstCount);
    expect(betweenSum / betweenCount).toBeGreaterThan(0.001);
    expect(betweenSum / betweenCount).toBeLessThan(1);
    expect(sample(text, 'gen_platform_time_to_first_token_seconds_bucket', 'le="+Inf",model="gen-4.6"')).toBe(
      firstCount,
    );
    // Load per deployment, once its engine is open: `gen-4.6[0]` is models.gen-4.6.deployments[0].
    expect(
      sample(text, 'gen_platform_deployment_in_flight', 'deployment="gen-4.6[0]",engine="openai-compatible"'),
    ).toBe(0);
    expect(sample(text, 'gen_platform_deployment_queue_depth', 'deployment="gen-4.6[0]"')).toBe(0);
  });

  it('counts the streams open while they are, and a stream once it has ended', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const res = await fetch(`${base}${CHAT}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody(true)),
    });
    expect(res.status).toBe(200);
    const open = await (await fetch(`${base}/metrics`)).text();
    expect(unlabelled(open, 'gen_platform_streams_open')).toBe(1);
    const body = await res.text();
    expect(body).toContain('data: [DONE]');
    const after = await (await fetch(`${base}/metrics`)).text();
    expect(unlabelled(after, 'gen_platform_streams_open')).toBe(0);
  });

  it('serves the same registry on a port of its own (metrics.port)', async () => {
    const server = await startMetricsServer(t.app.platformMetrics!, '127.0.0.1', 0);
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('gen_platform_requests_total');
      expect((await fetch(`${base}/other`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});

describe('engine load metrics', () => {
  it('a pool of deployments reports requests in flight and health per model code, once it is in use', async () => {
    const upstream = await startSlowUpstream({ chunks: 10, delayMs: 50 });
    const deployment = { engine: 'openai-compatible', base_url: upstream.baseUrl, model: 'stand-in' };
    const t = await createTestApp({
      embedded: { default_model: '' },
      models: { 'gen-4.6': { deployments: [deployment, { ...deployment, max_output: 4096 }] } },
      metrics: { enabled: true },
    });
    try {
      const scrape = async () => (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(await scrape()).not.toContain('gen_platform_engine_in_flight{');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      const res = await fetch(`${base}${CHAT}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(chatBody(true)),
      });
      const during = await scrape();
      expect(sample(during, 'gen_platform_engine_in_flight', 'model="gen-4.6"')).toBe(1);
      // undici's count of the deployment's requests running: one of the two has the stream.
      const running = ['gen-4.6[0]', 'gen-4.6[1]'].map((d) =>
        sample(during, 'gen_platform_deployment_in_flight', `deployment="${d}"`),
      );
      expect(running.sort()).toEqual([0, 1]);
      expect(sample(during, 'gen_platform_engine_up', 'model="gen-4.6"')).toBe(1);
      await res.text();
      expect(sample(await scrape(), 'gen_platform_engine_in_flight', 'model="gen-4.6"')).toBe(0);
    } finally {
      await t.close();
      await upstream.close();
    }
  });
});
