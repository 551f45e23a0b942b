import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LlamaCppEngine } from '../../src/engines/chat/llama-cpp/engine.js';
import { PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import { deployment, type E2eServer, finishOf, joined, startServer, streamOf } from './support.js';

const CHAT = '/paas/v4/chat/completions';
/** The programmed model with two parallel sequences. */
const PARALLEL = 'gen-4.6';
/**
 * The random model with one sequence and no queue: busy means 1305. Decoded greedily
 * (`do_sample: false`) it never ends before max_tokens.
 */
const SINGLE = 'gen-4.5-air';

let server: E2eServer;
beforeAll(async () => {
  server = await startServer(
    (paths) => ({
      [PARALLEL]: deployment(paths.programmed),
      [SINGLE]: deployment(paths.random, { parallel: 1, queue: 0 }),
    }),
    { listen: true },
  );
});
afterAll(async () => {
  await server?.close();
});

/** Opens a stream over a real socket and resolves with its reader once the headers are in. */
async function openStream(body: Record<string, unknown>) {
  const res = await fetch(`${server.base}${CHAT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.t.key}` },
    body: JSON.stringify({ stream: true, ...body }),
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    headers: Object.fromEntries(res.headers),
    /** Reads until at least one whole event has arrived. */
    async firstEvent(): Promise<string> {
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return text.slice(0, text.indexOf('\n\n'));
    },
    async rest(): Promise<string> {
      for (let r = await reader.read(); !r.done; r = await reader.read())
        text += decoder.decode(r.value, { stream: true });
      return text + decoder.decode();
    },
  };
}

const engineOf = async (code: string) => (await server.t.services.chat!.engineFor(code)) as LlamaCppEngine;

describe('embedded engine under concurrent and abandoned streams (real sockets)', () => {
  it('two concurrent streams both complete', async () => {
    const messages = [{ role: 'user', content: 'Say hello.' }];
    const a = await openStream({ model: PARALLEL, messages });
    const b = await openStream({ model: PARALLEL, messages, max_tokens: 3 });
    // Both are under way before either is read to its end.
    expect(await a.firstEvent()).toMatch(/^data: \{/);
    expect(await b.firstEvent()).toMatch(/^data: \{/);
    const [textA, textB] = await Promise.all([a.rest(), b.rest()]);
    const chunksA = streamOf({ status: 200, headers: a.headers, text: textA }, PARALLEL);
    const chunksB = streamOf({ status: 200, headers: b.headers, text: textB }, PARALLEL);
    expect(joined(chunksA, 'content')).toBe(PLAIN_REPLY);
    expect(finishOf(chunksA)).toBe('stop');
    expect(joined(chunksB, 'content')).toBe('Hello from the');
    expect(finishOf(chunksB)).toBe('length');
    expect((await engineOf(PARALLEL)).load).toEqual({ available: 2, waiting: 0 });
  });

  it('two concurrent streams on the random model with one sequence: the second is refused with 1305', async () => {
    const a = await openStream({
      model: SINGLE,
      messages: [{ role: 'user', content: 'Go on.' }],
      max_tokens: 200,
      do_sample: false,
    });
    await a.firstEvent();
    const res = await server.socket(CHAT, { model: SINGLE, messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.status).toBe(503);
    expect(JSON.parse(res.text)).toMatchObject({ code: 1305 });
    const chunks = streamOf({ status: 200, headers: a.headers, text: await a.rest() }, SINGLE);
    expect(finishOf(chunks)).toBe('length');
  });

  it('a client that disconnects mid-stream frees its sequence: the next request (queue 0) is served', async () => {
    const engine = await engineOf(SINGLE);
    const body = JSON.stringify({
      model: SINGLE,
      stream: true,
      messages: [{ role: 'user', content: 'Write a long story.' }],
      max_tokens: 1900,
      do_sample: false,
    });
    const firstChunk = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        `${server.base}${CHAT}`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${server.t.key}`,
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.once('data', (data: Buffer) => {
            // Gone after the first chunk, with most of the 1900 tokens still to generate.
            req.destroy();
            resolve(data.toString('utf8'));
          });
        },
      );
      req.on('error', (err) => {
        if (!req.destroyed) reject(err);
      });
      req.end(body);
    });
    expect(firstChunk.startsWith('data: {')).toBe(true);
    // The server notices the closed socket and aborts the generation, which gives the sequence back.
    await vi.waitFor(() => expect(engine.load).toEqual({ available: 1, waiting: 0 }), { timeout: 20_000, interval: 5 });
    const next = await server.socket(CHAT, {
      model: SINGLE,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 4,
      do_sample: false,
    });
    expect(next.status, next.text).toBe(200);
    expect(JSON.parse(next.text)).toMatchObject({
      choices: [{ finish_reason: 'length' }],
      usage: { completion_tokens: 4 },
    });
  });
});
