import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { chatRequest, collect, collectUntilError, engineFor, textOf } from './helpers.js';
import { sleep, sse } from './replay-server.js';

/**
 * An upstream that closes a connection it kept alive, just as our next request goes out on it
 * (llama.cpp server closes idle connections after ~5 s, uvicorn after 5 s): the request never reached
 * it, so it is sent once more on a fresh connection, never reported as a 1234.
 */

type Close = 'fin' | 'rst';
const served = new WeakMap<Socket, number>();
let server: Server;
let url = '';
let closeHow: Close | 'fresh-too' = 'fin';
let requests = 0;
let connections = 0;

function answer(req: IncomingMessage, res: ServerResponse): void {
  requests++;
  const socket = req.socket;
  const n = (served.get(socket) ?? 0) + 1;
  served.set(socket, n);
  req.resume();
  req.on('end', () => {
    // A connection's second request finds it closed, as if the upstream's idle close had won the race.
    if (n >= 2 || closeHow === 'fresh-too') {
      if (closeHow === 'rst') socket.resetAndDestroy();
      else socket.destroy();
      return;
    }
    if (req.url?.endsWith('/tokenize')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"tokens":[1,2,3]}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sse('vllm-reasoning.sse').pieces.join(''));
  });
}

beforeAll(async () => {
  server = createServer(answer);
  server.keepAliveTimeout = 60_000;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a request on a connection the upstream has closed', () => {
  for (const how of ['fin', 'rst'] as const) {
    it(`is sent again once on a fresh connection (${how === 'fin' ? 'closed' : 'reset'})`, async () => {
      closeHow = how;
      // Kept alive longer than the server keeps it, so that the second call meets the closing socket.
      const engine = engineFor(url, { timeouts: { keepAliveMs: 60_000 }, tokenizeUrl: `${url}/tokenize` });
      try {
        const [r0, c0] = [requests, connections];
        await collect(engine.generate(chatRequest(), new AbortController().signal));
        await sleep(50); // the connection back in the pool, idle
        const parts = await collect(engine.generate(chatRequest(), new AbortController().signal));
        expect(textOf(parts, 'text-delta')).toContain('你好');
        expect(requests - r0).toBe(3);
        expect(connections - c0).toBe(2);
        // The counting path takes the same way.
        const count = () => engine.countTokens([{ role: 'user', content: 'hi' }], []);
        await sleep(50);
        await expect(count()).resolves.toBe(3);
        await sleep(50);
        await expect(count()).resolves.toBe(3);
        expect(requests - r0).toBe(6);
      } finally {
        await engine.close();
      }
    });
  }

  it('a fresh connection closed without an answer is not retried: 1234 at once', async () => {
    closeHow = 'fresh-too';
    const engine = engineFor(url);
    try {
      const r0 = requests;
      const { error } = await collectUntilError(engine.generate(chatRequest(), new AbortController().signal));
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(1234);
      expect(requests - r0).toBe(1);
    } finally {
      await engine.close();
      closeHow = 'fin';
    }
  });
});
