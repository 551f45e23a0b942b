import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReplayControl } from '../engines/image/replay/common.js';
import { startOpenAIReplay } from '../engines/image/replay/openai-replay.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver.js';
import { type SlowUpstream, startSlowUpstream } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

const CALLER_TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const SERVER = 2;
const CLIENT = 3;

let receiver: OtlpReceiver;
let upstream: SlowUpstream;
let images: ReplayControl;
let t: TestApp;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  upstream = await startSlowUpstream({ chunks: 3, delayMs: 5 });
  images = await startOpenAIReplay();
  t = await createTestApp(
    {
      models: {
        'gen-4.6': { deployments: [{ engine: 'openai-compatible', base_url: upstream.baseUrl, model: 'stand-in' }] },
        'gen-image': { deployments: [{ engine: 'openai-compatible', base_url: images.url, model: 'stand-in' }] },
      },
      images: { poll_interval_ms: 50 },
      reader: { allow_hosts: ['127.0.0.1'] },
    },
    // The standard variables, read by the config at start-up.
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'gp-test' },
  );
});
afterAll(async () => {
  await t?.close();
  await Promise.all([receiver?.close(), upstream?.close(), images?.close()]);
});

const call = (url: string, body: unknown, traceparent?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${t.key}`,
      ...(traceparent ? { traceparent } : {}),
    },
    payload: JSON.stringify(body),
  });

const childOf = (parent: ReceivedSpan) => (s: ReceivedSpan) => s.parentSpanId === parent.spanId;

describe('OpenTelemetry tracing to an OTLP/HTTP receiver', { timeout: 60_000 }, () => {
  it('a chat request continues the caller’s trace: server span, GenAI client span, traceparent upstream', async () => {
    for (const stream of [false, true]) {
      const res = await call(
        '/paas/v4/chat/completions',
        { model: 'gen-4.6', stream, max_tokens: 50, messages: [{ role: 'user', content: `hi ${stream}` }] },
        `00-${CALLER_TRACE}-${CALLER_SPAN}-01`,
      );
      expect(res.statusCode).toBe(200);
    }
    const callers = (s: ReceivedSpan) => s.kind === SERVER && s.traceId === CALLER_TRACE;
    await receiver.waitFor(() => receiver.spans.filter(callers).length === 2);
    const servers = receiver.spans.filter(callers);
    for (const server of servers) {
      expect(server.name).toBe('POST /paas/v4/chat/completions');
      expect(server.parentSpanId).toBe(CALLER_SPAN);
      expect(server.attributes).toMatchObject({
        'http.request.method': 'POST',
        'http.route': '/paas/v4/chat/completions',
        'http.response.status_code': 200,
        'gen_ai.request.model': 'gen-4.6',
      });
      expect(server.resource).toMatchObject({ 'service.name': 'gp-test' });
      const chat = await receiver.waitFor(childOf(server));
      expect(chat.name).toBe('chat gen-4.6');
      expect(chat.kind).toBe(CLIENT);
      expect(chat.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai-compatible',
        'gen_ai.request.model': 'gen-4.6',
        'gen_ai.request.max_tokens': 50,
        'gen_ai.usage.input_tokens': 5,
        'gen_ai.usage.output_tokens': 3,
        'gen_ai.response.finish_reasons': ['stop'],
      });
      // W3C trace context reached the upstream engine, naming the GenAI span as the parent.
      expect(upstream.traceparents).toContain(`00-${CALLER_TRACE}-${chat.spanId}-01`);
    }
  });

  it('a request without a traceparent starts a trace; a client error (4xx) does not mark the span failed', async () => {
    const bad = await call('/paas/v4/chat/completions', { model: 'gen-4.6', messages: [] });
    expect(bad.statusCode).toBe(400);
    const span = await receiver.waitFor((s) => s.kind === SERVER && s.attributes['http.response.status_code'] === 400);
    expect(span.traceId).not.toBe(CALLER_TRACE);
    expect(span.parentSpanId).toBe('');
    expect(span.status.code ?? 0).toBe(0);
    expect(span.attributes['gen_platform.error_code']).toBeGreaterThan(1000);
  });

  it('web search and the reader have spans of their own under the request', async () => {
    const search = await call('/paas/v4/web_search', { search_engine: 'search-prime', search_query: 'tracing' });
    expect(search.statusCode).toBe(200);
    const searchSpan = await receiver.waitFor((s) => s.name === 'search search-prime');
    expect(searchSpan.attributes).toMatchObject({ 'gen_platform.search.results': 0 });
    const parent = receiver.spans.find((s) => s.spanId === searchSpan.parentSpanId);
    expect(parent?.name).toBe('POST /paas/v4/web_search');

    const read = await call('/paas/v4/reader', { url: `${receiver.url}/page` });
    expect([200, 400, 500]).toContain(read.statusCode);
    const readerSpan = await receiver.waitFor((s) => s.name === 'reader.read');
    expect(readerSpan.attributes['url.full']).toBe(`${receiver.url}/page`);
    expect(receiver.spans.find((s) => s.spanId === readerSpan.parentSpanId)?.name).toBe('POST /paas/v4/reader');
  });

  it('an async image job has a job span and an engine span, whose traceparent reaches the image engine', async () => {
    const res = await call('/paas/v4/async/images/generations', { model: 'gen-image', prompt: 'a lighthouse' });
    expect(res.statusCode).toBe(200);
    const job = await receiver.waitFor((s) => s.name === 'image_job gen-image');
    expect(job.attributes['gen_platform.task_id']).toBe((res.json() as { id: string }).id);
    const engine = await receiver.waitFor((s) => s.name === 'generate_content gen-image');
    expect(engine.parentSpanId).toBe(job.spanId);
    expect(engine.attributes).toMatchObject({ 'gen_ai.output.type': 'image', 'gen_ai.request.model': 'gen-image' });
    expect(images.traceparents).toContain(`00-${engine.traceId}-${engine.spanId}-01`);
  });

  it('exports are OTLP/HTTP JSON posts of known length to /v1/traces', () => {
    const exports = receiver.requests.filter((r) => r.method === 'POST');
    expect(exports.length).toBeGreaterThan(0);
    for (const r of exports) {
      expect(r.path).toBe('/v1/traces');
      expect(r.headers['content-type']).toBe('application/json');
      expect(Number(r.headers['content-length'])).toBeGreaterThan(0);
    }
  });
});
