import { describe, expect, it } from 'vitest';
import { ChunkMapper } from '../../../src/engines/chat/openai-compatible/chunk-mapper.js';
import { ContentTemplate, isPlainTextChunk } from '../../../src/engines/chat/openai-compatible/content-template.js';
import { SseRelay } from '../../../src/engines/chat/openai-compatible/sse-relay.js';
import type { WireChunk } from '../../../src/engines/chat/openai-compatible/wire.js';
import type { ChatStreamPart } from '../../../src/engines/chat/types.js';

/**
 * The relay reads text chunks of a known shape without JSON.parse (content-template.ts). Whatever
 * the server writes, its parts must be those of parsing every event: each case here is checked
 * against that reference, event by event.
 */

/** Every event parsed and mapped, as the relay did before the template. */
function reference(events: string[]): ChatStreamPart[] {
  const mapper = new ChunkMapper(false);
  const out: ChatStreamPart[] = [];
  for (const data of events) mapper.chunk(JSON.parse(data) as WireChunk, out);
  mapper.finish(out);
  return out;
}

/** The relay, fed the events as one SSE body cut into pieces of `piece` bytes. */
function relayed(events: string[], piece = 1 << 20): ChatStreamPart[] {
  const relay = new SseRelay(false);
  const out: ChatStreamPart[] = [];
  const body = Buffer.from(`${events.map((e) => `data: ${e}\n\n`).join('')}data: [DONE]\n\n`);
  for (let at = 0; at < body.length; at += piece) relay.data(body.subarray(at, at + piece), out);
  return out;
}

const vllmHead = '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1747393912,"model":"m","choices":[';
const vllm = (delta: string, finish = 'null') =>
  `${vllmHead}{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]}`;
const text = (t: string) => vllm(`{"content":${JSON.stringify(t)}}`);

/** JSON text as Python's json.dumps writes it by default: non-ASCII as \u escapes, spaces after , and :. */
const pythonAscii = (t: string) =>
  JSON.stringify(t).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const TEXTS = [
  'The',
  ' quick',
  '"quoted"',
  'back\\slash',
  'line\nbreak\ttab',
  'nul\u0000and\u001fcontrol',
  'é ü 中文 😀',
  '</script>&<>',
  '',
  ' ',
  '\\"',
  '","content":"x',
  '\u2028\u2029',
];

describe('ContentTemplate', () => {
  it('reads text chunks of the shape it was cut from, and nothing else', () => {
    const first = text('The');
    const template = ContentTemplate.of(first, JSON.parse(first) as WireChunk)!;
    expect(template).toBeDefined();
    for (const t of TEXTS) expect(template.text(text(t))).toBe(t);
    expect(template.text(vllm('{"content":"x"}', '"stop"'))).toBeUndefined();
    expect(template.text(vllm('{"content":null}'))).toBeUndefined();
    expect(template.text(vllm('{"content":1}'))).toBeUndefined();
    expect(template.text(vllm('{"content":"a","content":"b"}'))).toBeUndefined();
    expect(template.text(vllm('{"content":"a"+"b"}'))).toBeUndefined();
    expect(template.text(vllm('{"content":"a\\"}'))).toBeUndefined();
    expect(template.text(vllm('{"content":"a","x":"b"}'))).toBeUndefined();
    expect(template.text(vllm('{"content":""}'))).toBe('');
  });

  it('is not cut from a chunk the server does not write as JSON.stringify does', () => {
    const spaced = '{"choices": [{"index": 0, "delta": {"content": "Hi"}}]}';
    expect(ContentTemplate.of(spaced, JSON.parse(spaced) as WireChunk)).toBeUndefined();
    const escaped = vllm(`{"content":${pythonAscii('é')}}`);
    expect(ContentTemplate.of(escaped, JSON.parse(escaped) as WireChunk)).toBeUndefined();
    const duplicate = vllm('{"content":"a","content":"b"}');
    expect(ContentTemplate.of(duplicate, JSON.parse(duplicate) as WireChunk)).toBeUndefined();
  });

  it('takes only chunks whose one text is all that maps to a part', () => {
    const plain = (data: string) => isPlainTextChunk(JSON.parse(data) as WireChunk);
    expect(plain(text('Hi'))).toBe(true);
    expect(plain(vllm('{"role":"assistant","content":"Hi"}'))).toBe(true);
    expect(plain(text(''))).toBe(false);
    expect(plain(vllm('{"content":"Hi"}', '"stop"'))).toBe(false);
    expect(plain(vllm('{"content":"Hi","reasoning_content":"hm"}'))).toBe(false);
    expect(plain(vllm('{"content":"Hi","tool_calls":[]}'))).toBe(false);
    expect(plain(`${vllmHead}{"index":1,"delta":{"content":"Hi"}}]}`)).toBe(false);
    expect(plain(`${vllmHead}{"index":0,"delta":{"content":"Hi"}}],"usage":{"prompt_tokens":1}}`)).toBe(false);
    expect(plain('{"error":{"message":"x"},"choices":[{"delta":{"content":"Hi"}}]}')).toBe(false);
    expect(plain('{"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}')).toBe(false);
  });
});

describe('SseRelay with the template: the parts of parsing every event', () => {
  const streams: Record<string, string[]> = {
    'vLLM: role first, then text, finish, usage': [
      vllm('{"role":"assistant","content":""}'),
      ...TEXTS.map(text),
      vllm('{"content":""}', '"stop"'),
      `${vllmHead}],"usage":{"prompt_tokens":3,"completion_tokens":13,"total_tokens":16}}`,
    ],
    'Ollama: role in every chunk, Go escapes <, > and &': TEXTS.map(
      (t) =>
        `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":"fp_ollama","choices":[{"index":0,"delta":{"role":"assistant","content":${JSON.stringify(t).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')}},"finish_reason":null}]}`,
    ),
    'Python json.dumps: spaces and \\u escapes': TEXTS.map(
      (t) => `{"id": "x", "choices": [{"index": 0, "delta": {"content": ${pythonAscii(t)}}, "finish_reason": null}]}`,
    ),
    'the first text chunk apart, with the role': [
      vllm('{"role":"assistant","content":"Hello"}'),
      ...TEXTS.map(text),
      vllm('{"content":"!"}', '"length"'),
    ],
    'text after reasoning, and reasoning after text': [
      vllm('{"reasoning_content":"think"}'),
      ...TEXTS.slice(0, 4).map(text),
      vllm('{"reasoning_content":"late"}'),
      ...TEXTS.slice(4).map(text),
    ],
    'a tool call between text chunks': [
      text('a'),
      text('b'),
      vllm('{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"f","arguments":"{}"}}]}'),
      text('c'),
    ],
    'the id changes mid-stream': [text('a'), text('b'), text('c').replace('chatcmpl-1', 'chatcmpl-2'), text('d')],
    'text chunks that break the template': [
      text('a'),
      text('b'),
      vllm('{"content":"x","content":"y"}'),
      vllm('{"content":"p","x":"q"}'),
      vllm('{"content":"m"   }'),
      text('c'),
    ],
    'a finish reason in a text chunk': [text('a'), text('b'), vllm('{"content":"c"}', '"stop"')],
  };

  for (const [name, events] of Object.entries(streams)) {
    it(name, () => {
      const expected = reference(events);
      expect(relayed(events)).toEqual(expected);
      // Cut anywhere: inside an event, a multi-byte character or the blank line.
      expect(relayed(events, 7)).toEqual(expected);
      expect(relayed(events, 1)).toEqual(expected);
    });
  }

  it('random texts, random shapes', () => {
    const alphabet = ['a', ' ', '"', '\\', '\n', '\u0001', 'é', '中', '😀', '/', '<', 'u', '{', '}', ',', ':'];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const events: string[] = [];
      for (let i = 0; i < 12; i++) {
        let t = '';
        for (let n = random(6); n > 0; n--) t += alphabet[random(alphabet.length)];
        const shape = random(10);
        if (shape < 6) events.push(text(t));
        else if (shape === 6) events.push(vllm(`{"content":${pythonAscii(t)}}`));
        else if (shape === 7) events.push(vllm(`{"role":"assistant","content":${JSON.stringify(t)}}`));
        else if (shape === 8) events.push(vllm(`{"reasoning_content":${JSON.stringify(t || 'r')}}`));
        else events.push(vllm(`{"content":${JSON.stringify(t)}}`, '"stop"'));
      }
      expect(relayed(events, 1 + random(40))).toEqual(reference(events));
    }
  });
});
