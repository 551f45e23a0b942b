import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleEngine } from '../../../src/engines/chat/openai-compatible/index.js';
import type { OpenAICompatibleOptions } from '../../../src/engines/chat/openai-compatible/options.js';
import { SseDecoder, SseEventTooLargeError } from '../../../src/engines/chat/openai-compatible/sse-decoder.js';
import type { ChatEngine } from '../../../src/engines/chat/types.js';
import { ApiError } from '../../../src/errors/api-error.js';
import {
  type MisbehavingUpstream,
  type Misbehaviour,
  startMisbehavingUpstream,
} from '../../helpers/misbehaving-upstream.js';
import { capabilities, chatRequest, collectUntilError, textOf } from './helpers.js';

const signal = () => new AbortController().signal;

/** Runs one call against a stand-in in `mode`; the engine's bounds are small so that tests are quick. */
async function call(
  upstream: MisbehavingUpstream,
  mode: Misbehaviour,
  extra: Partial<OpenAICompatibleOptions> = {},
  request = chatRequest(),
) {
  upstream.mode = mode;
  const engine: ChatEngine = createOpenAICompatibleEngine({
    baseUrl: upstream.baseUrl,
    model: 'm',
    capabilities,
    limits: { maxEventBytes: 256 * 1024, maxJsonBytes: 512 * 1024, maxReplyBytes: 2 << 20 },
    ...extra,
  });
  const started = performance.now();
  const rssBefore = process.memoryUsage().rss;
  try {
    const result = await collectUntilError(engine.generate(request, signal()));
    return { ...result, ms: performance.now() - started, rssGrowth: process.memoryUsage().rss - rssBefore };
  } finally {
    await engine.close();
  }
}

function expect1234(error: unknown, pattern: RegExp): void {
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(1234);
  expect((error as ApiError).message).toMatch(pattern);
}

describe('upstream replies are bounded', () => {
  let upstream: MisbehavingUpstream;
  beforeAll(async () => {
    upstream = await startMisbehavingUpstream('stall');
  });
  afterAll(async () => {
    await upstream.close();
  });

  it('one SSE line that never ends: 1234 naming limits.max_event_bytes, the upstream connection closed', async () => {
    const closedBefore = upstream.closedByClient;
    const { parts, error, ms, rssGrowth } = await call(upstream, 'endless-line');
    expect(parts).toEqual([]);
    expect1234(error, /one stream event exceeded 262144 characters \(limits\.max_event_bytes\)/);
    expect(ms).toBeLessThan(5_000);
    expect(rssGrowth).toBeLessThan(100 << 20);
    await expect.poll(() => upstream.closedByClient).toBeGreaterThan(closedBefore);
  });

  it('pings that never end: 1234 naming limits.max_reply_bytes', async () => {
    const { error } = await call(upstream, 'endless-pings');
    expect1234(error, /the reply exceeded 2097152 bytes \(limits\.max_reply_bytes\)/);
  });

  it('a JSON reply that never ends (stream: false): 1234 naming limits.max_json_bytes', async () => {
    const { error, ms } = await call(upstream, 'endless-json', {}, chatRequest({ stream: false }));
    expect1234(error, /the JSON reply exceeded 524288 bytes \(limits\.max_json_bytes\)/);
    expect(ms).toBeLessThan(5_000);
  });

  it('an error answer that never ends: 1234 naming the status, without reading it all', async () => {
    const { error, ms } = await call(upstream, 'endless-error');
    expect1234(error, /upstream answered HTTP 500/);
    expect(ms).toBeLessThan(5_000);
  });

  it('output past max_tokens is cut: the parts before, then 1234 naming max_tokens', async () => {
    const { parts, error } = await call(upstream, 'endless-events', {}, chatRequest({ maxTokens: 10 }));
    expect1234(error, /went on past max_tokens \(10\)/);
    const deltas = parts.filter((p) => p.type === 'text-delta').length;
    expect(deltas).toBeGreaterThan(0);
    expect(deltas).toBeLessThanOrEqual(2 * 10 + 16);
    expect(textOf(parts, 'text-delta')).toMatch(/^w0 w1 /);
  });

  it('a whole reply longer than max_tokens: 1234, no parts', async () => {
    const { parts, error } = await call(upstream, 'whole-too-long', {}, chatRequest({ stream: false, maxTokens: 20 }));
    expect(parts).toEqual([]);
    expect1234(error, /went on past max_tokens \(20\): 50 completion tokens/);
  });

  it('an upstream that goes silent after the headers: 1234 naming timeouts.idle_ms', async () => {
    const { parts, error, ms } = await call(upstream, 'stall', { timeouts: { idleMs: 300 } });
    expect(parts).toEqual([]);
    expect1234(error, /no bytes from the upstream for 0\.3 s \(timeouts\.idle_ms\)/);
    expect(ms).toBeLessThan(3_000);
  });

  it('silent after some output: the parts, then the same error (a network_error chunk for the client)', async () => {
    const { parts, error } = await call(upstream, 'stall-after', { timeouts: { idleMs: 300 } });
    expect(textOf(parts, 'text-delta')).toBe('Hello there');
    expect1234(error, /timeouts\.idle_ms/);
  });
});

describe('SseDecoder bounds', () => {
  it('never holds more than its cap of one event, and throws once past it', () => {
    const decoder = new SseDecoder(1 << 20);
    const piece = new Uint8Array(64 * 1024).fill(0x62);
    decoder.feed(new TextEncoder().encode('data: '));
    let fed = 0;
    expect(() => {
      for (; fed < 200 << 20; fed += piece.length) {
        decoder.feed(piece);
        decoder.next();
      }
    }).toThrow(SseEventTooLargeError);
    expect(fed).toBeLessThanOrEqual((1 << 20) + piece.length);
  });

  it('counts data lines already complete toward the cap', () => {
    const decoder = new SseDecoder(100);
    decoder.feed(new TextEncoder().encode(`data: ${'a'.repeat(60)}\n`));
    expect(decoder.next()).toBeUndefined();
    decoder.feed(new TextEncoder().encode(`data: ${'a'.repeat(60)}\n`));
    expect(() => decoder.next()).toThrow(SseEventTooLargeError);
  });

  it('a long line in many pieces is scanned and copied once, and decoded whole', () => {
    const decoder = new SseDecoder();
    // 8 MB in 16 KB pieces: ~0.1 s when each piece is copied once, seconds when the line so far is
    // copied again with every piece (what joining each piece to the buffer did).
    const line = 'x'.repeat(8 << 20);
    const bytes = new TextEncoder().encode(`data: ${line}\n\ndata: y\n\n`);
    const events: string[] = [];
    const started = performance.now();
    for (let i = 0; i < bytes.length; i += 16 * 1024) {
      decoder.feed(bytes.subarray(i, i + 16 * 1024));
      for (let d = decoder.next(); d !== undefined; d = decoder.next()) events.push(d);
    }
    expect(events).toEqual([line, 'y']);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('a line held in pieces ends in the next chunk, with a CRLF split across the two', () => {
    const decoder = new SseDecoder();
    const chunks = ['da', 'ta: ab', 'c', 'd\r', '\n\r\ndata: e\n', '\n'];
    const events: string[] = [];
    for (const c of chunks) {
      decoder.feed(new TextEncoder().encode(c));
      for (let d = decoder.next(); d !== undefined; d = decoder.next()) events.push(d);
    }
    expect(events).toEqual(['abcd', 'e']);
  });
});
