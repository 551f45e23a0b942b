import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatEngine, ChatRequest } from '../../src/engines/chat/types.js';
import { PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import { type AgentApp, type AgentReply, agentBody, parseStream, startAgentApp } from './agents-support.js';

/** Pieces of at most 200 tokens: a text of short paragraphs is cut into several. */
let app: AgentApp;
let engine: ChatEngine;
beforeAll(async () => {
  app = await startAgentApp({ piece_tokens: 200, max_input_chars: 5000 }, { listen: true });
  engine = await app.t.services.chat!.engineFor('gen-4.7');
});
afterAll(() => app?.close());

const paragraph = (i: number) =>
  `Paragraph ${i} says that the weather is lovely and we should walk to the harbour today.`;
/** Ten paragraphs with different breaks between them, to see them come back as they were. */
const BREAKS = ['\n\n', '\n\n\n', '\n \n', '\n\n', '\n\n\n\n', '\n\n', '\n\n', '\n\n', '\n\n'];
const LONG = [paragraph(0), ...BREAKS.flatMap((b, i) => [b, paragraph(i + 1)])].join('');

const post = (body: unknown, signal?: AbortSignal) =>
  fetch(`${app.base}/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${app.t.key}` },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
const longBody = (extra: Record<string, unknown> = {}) => ({
  ...agentBody(),
  messages: [{ role: 'user', content: LONG }],
  ...extra,
});

describe('long input', () => {
  it('is cut at paragraph breaks, one call a piece, and re-joined with the original breaks', async () => {
    const res = await app.t.post('/v1/agents', longBody());
    expect(res.status).toBe(200);
    const reply = res.body as unknown as AgentReply;
    const text = reply.choices[0]!.messages[0]!.content.text;
    const pieces = text.split(PLAIN_REPLY);
    const calls = reply.usage.total_calls;
    expect(calls).toBeGreaterThan(1);
    expect(calls).toBeLessThan(11);
    expect(pieces.length - 1).toBe(calls);
    // Every separator between translated pieces is one of the input's own breaks, in order.
    const seps = pieces.slice(1, -1);
    let at = 0;
    for (const sep of seps) {
      const found = BREAKS.indexOf(sep, at);
      expect(found, JSON.stringify(sep)).toBeGreaterThanOrEqual(at);
      at = found + 1;
    }
  });

  it('longer than agents.general_translation.max_input_chars is a 1214', async () => {
    const res = await app.t.post('/v1/agents', {
      ...agentBody(),
      messages: [{ role: 'user', content: 'x'.repeat(5001) }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1214 });
    expect(String(res.body['message'])).toContain('messages[0].content');
  });
});

describe('stream', () => {
  it('sends a chunk per piece as it is made, then finish_reason and usage, then [DONE]', async () => {
    const res = await post(longBody({ stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream;charset=UTF-8');
    const { chunks, done } = parseStream(await res.text());
    expect(done).toBe(true);
    const last = chunks.at(-1) as unknown as AgentReply & { agent_id: string };
    const id = last.id;
    for (const c of chunks) {
      expect(c).toMatchObject({ id, agent_id: 'general_translation', conversation_id: last.conversation_id });
    }
    expect(Object.keys(last)).toEqual(['id', 'agent_id', 'conversation_id', 'choices', 'usage']);
    expect(last.choices).toEqual([{ index: 0, finish_reason: 'stop' }]);
    expect(chunks.length - 1).toBe(last.usage.total_calls);
    const text = chunks
      .slice(0, -1)
      .map((c) => (c as unknown as AgentReply).choices[0]!.messages[0]!.content.text)
      .join('');
    expect(text.startsWith(PLAIN_REPLY)).toBe(true);
    expect(text.split(PLAIN_REPLY).length - 1).toBe(last.usage.total_calls);
  });

  it('a client that goes away stops the calls', async () => {
    const original = engine.generate.bind(engine);
    const signals: AbortSignal[] = [];
    let calls = 0;
    engine.generate = (request: ChatRequest, signal: AbortSignal) => {
      calls++;
      signals.push(signal);
      return original(request, signal);
    };
    try {
      const controller = new AbortController();
      const res = await post(
        longBody({ stream: true, custom_variables: { strategy: 'reflection' } }),
        controller.signal,
      );
      const reader = res.body!.getReader();
      await reader.read(); // the first piece: three calls made
      controller.abort();
      await new Promise((r) => setTimeout(r, 1500));
      const after = calls;
      await new Promise((r) => setTimeout(r, 1500));
      expect(calls).toBe(after);
      // Ten paragraphs in several pieces at three calls each: far fewer were made.
      expect(calls).toBeLessThan(9);
      expect(signals.at(-1)?.aborted).toBe(true);
    } finally {
      engine.generate = original;
    }
  });

  it('a backend failure after the first chunk ends the stream with network_error, then [DONE]', async () => {
    const original = engine.generate.bind(engine);
    let calls = 0;
    engine.generate = (request: ChatRequest, signal: AbortSignal) => {
      calls++;
      if (calls === 2) throw new Error('backend went away');
      return original(request, signal);
    };
    try {
      const res = await post(longBody({ stream: true }));
      expect(res.status).toBe(200);
      const { chunks, done } = parseStream(await res.text());
      expect(done).toBe(true);
      expect(chunks).toHaveLength(2);
      expect(chunks[1]).toMatchObject({
        choices: [{ index: 0, finish_reason: 'network_error' }],
        usage: { total_calls: 2 },
      });
    } finally {
      engine.generate = original;
    }
  });

  it('a failure before the first chunk is an ordinary JSON error', async () => {
    const original = engine.generate.bind(engine);
    engine.generate = () => {
      throw new Error('backend down');
    };
    try {
      const res = await post(longBody({ stream: true }));
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toContain('application/json');
    } finally {
      engine.generate = original;
    }
  });
});
