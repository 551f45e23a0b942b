import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder } from '../../../src/engines/chat/openai-compatible/sse-decoder.js';
import { SseRelay } from '../../../src/engines/chat/openai-compatible/sse-relay.js';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';
import { fixtureBytes } from './replay-server.js';

const encoder = new TextEncoder();

function decodeAll(pieces: string[] | Uint8Array[]): { data: string; error: boolean }[] {
  const decoder = new SseDecoder();
  const events: { data: string; error: boolean }[] = [];
  for (const piece of pieces) {
    decoder.feed(typeof piece === 'string' ? encoder.encode(piece) : piece);
    for (let data = decoder.next(); data !== undefined; data = decoder.next())
      events.push({ data, error: decoder.isError });
  }
  return events;
}

/** Feeds the bytes cut at `cuts` through the relay, as network chunks would arrive. */
function relay(bytes: Uint8Array, cuts: number[]): ChatStreamPart[] {
  const sseRelay = new SseRelay(false);
  const out: ChatStreamPart[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > start) sseRelay.data(bytes.subarray(start, cut), out);
    start = Math.max(start, cut);
  }
  sseRelay.end(out);
  return out;
}

const FIXTURES = ['vllm-reasoning.sse', 'vllm-tool-calls.sse', 'ollama-reasoning.sse', 'ollama-tool-call.sse'];

describe('SseDecoder', () => {
  it('hands out each event once its blank line has arrived', () => {
    const decoder = new SseDecoder();
    decoder.feed(encoder.encode('data: {"a":1}\n'));
    expect(decoder.next()).toBeUndefined();
    decoder.feed(encoder.encode('\ndata: {"b"'));
    expect(decoder.next()).toBe('{"a":1}');
    expect(decoder.next()).toBeUndefined();
    decoder.feed(encoder.encode(':2}\n\n'));
    expect(decoder.next()).toBe('{"b":2}');
  });

  it('handles CRLF and CR line ends, also split between CR and LF', () => {
    expect(decodeAll(['data: x\r', '\n\r', '\ndata: y\r\r'])).toEqual([
      { data: 'x', error: false },
      { data: 'y', error: false },
    ]);
  });

  it('skips comments, other fields and empty events; joins multi-line data; keeps `error:` events apart', () => {
    const text = ': ping\n\nevent: message\nid: 7\nretry: 10\ndata: a\ndata:b\n\ndata\n\nerror: {"code":500}\n\n';
    expect(decodeAll([text])).toEqual([
      { data: 'a\nb', error: false },
      { data: '{"code":500}', error: true },
    ]);
  });

  it('reassembles multi-byte characters split across chunks', () => {
    const bytes = encoder.encode('data: 你好👋é\n\n');
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(decodeAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([{ data: '你好👋é', error: false }]);
    }
  });
});

describe('relaying recorded streams split anywhere', () => {
  for (const name of FIXTURES) {
    const bytes = fixtureBytes(name);

    it(`${name}: same parts for a split at every byte boundary`, () => {
      expect(bytes.length).toBeGreaterThan(new TextDecoder().decode(bytes).length); // multi-byte content
      const whole = relay(bytes, []);
      expect(whole.at(-1)?.type).toBe('finish');
      for (let cut = 1; cut < bytes.length; cut++) expect(relay(bytes, [cut])).toEqual(whole);
    });

    it(`${name}: same parts for random multi-way splits`, () => {
      const whole = relay(bytes, []);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 }), (cuts) => {
          expect(
            relay(
              bytes,
              [...cuts].sort((a, b) => a - b),
            ),
          ).toEqual(whole);
        }),
        { numRuns: 200 },
      );
    });

    it(`${name}: one byte at a time`, () => {
      const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
      expect(relay(bytes, cuts)).toEqual(relay(bytes, []));
    });
  }
});
