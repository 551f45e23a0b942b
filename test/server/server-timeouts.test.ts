import { type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SlowUpstream, startSlowUpstream, upstreamModels } from '../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The HTTP server's bounds, over real sockets: headers, whole-request, keep-alive and
 * idle-connection timeouts, and a stream whose client stopped reading is closed with its upstream
 * work (server.*).
 */

let upstream: SlowUpstream | undefined;
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  await upstream?.close();
  t = upstream = undefined;
});

async function serving(server: Record<string, number>, upstreamOptions?: Parameters<typeof startSlowUpstream>[0]) {
  upstream = await startSlowUpstream(upstreamOptions);
  t = await createTestApp({ ...upstreamModels(upstream.baseUrl), server });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}

/** Resolves with what the server wrote before it closed the socket, and how long that took. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  let text = '';
  socket.on('data', (d: Buffer) => {
    text += d.toString();
  });
  socket.on('error', () => undefined);
  return new Promise((resolve) => socket.on('close', () => resolve({ text, ms: Date.now() - started })));
}

const open = (port: number) =>
  new Promise<Socket>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
  });

describe('server timeouts', () => {
  it('closes a connection whose headers never finish (server.headers_timeout_seconds)', async () => {
    const port = await serving({ headers_timeout_seconds: 1, request_timeout_seconds: 30 });
    const socket = await open(port);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const { ms } = await untilClosed(socket);
    expect(ms).toBeLessThan(5000);
  });

  it('answers 408 to a request whose body never finishes (server.request_timeout_seconds)', async () => {
    const port = await serving({ headers_timeout_seconds: 1, request_timeout_seconds: 2 });
    const socket = await open(port);
    socket.write(
      `POST /paas/v4/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nAuthorization: Bearer ${t!.key}\r\n\r\n{"model":`,
    );
    const { text, ms } = await untilClosed(socket);
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(6000);
  });

  it('closes an idle keep-alive connection (server.keep_alive_timeout_seconds)', async () => {
    const port = await serving({ keep_alive_timeout_seconds: 1 });
    const socket = await open(port);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const { text, ms } = await untilClosed(socket);
    expect(text).toContain('{"status":"ok",');
    expect(ms).toBeLessThan(4000);
  });

  it('closes a connection silent for server.idle_timeout_seconds and cancels its upstream call', async () => {
    // A non-streamed answer the upstream takes 30 s to give.
    const port = await serving({ idle_timeout_seconds: 1 }, { chunks: 300, delayMs: 100 });
    const socket = await open(port);
    const body = JSON.stringify({ model: 'gen-4.6', messages: [{ role: 'user', content: 'hi' }] });
    socket.write(
      `POST /paas/v4/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nAuthorization: Bearer ${t!.key}\r\n\r\n${body}`,
    );
    const { text, ms } = await untilClosed(socket);
    expect(text).toBe('');
    expect(ms).toBeLessThan(5000);
    await expect.poll(() => upstream!.aborted, { timeout: 3000 }).toBe(1);
  });
});

/** A streamed chat call over a real socket, its response handed to `onResponse`. */
function streamChat(port: number, onError: (err: Error) => void, onResponse: (res: IncomingMessage) => void): void {
  const req = request(
    {
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/paas/v4/chat/completions',
      headers: { authorization: `Bearer ${t!.key}`, 'content-type': 'application/json' },
    },
    onResponse,
  );
  req.on('error', onError);
  req.end(JSON.stringify({ model: 'gen-4.6', stream: true, messages: [{ role: 'user', content: 'hi' }] }));
}

describe('a stream whose client stopped reading (server.stream_stall_seconds)', () => {
  it('is closed, and its upstream stream with it', async () => {
    // Deltas of 16 KB as fast as the upstream can: the client's socket fills within a second.
    const port = await serving(
      { stream_stall_seconds: 1 },
      { chunks: 1_000_000, delayMs: 1, word: 'x'.repeat(16 * 1024) },
    );
    const connections = () => new Promise<number>((resolve) => t!.app.server.getConnections((_err, n) => resolve(n)));
    const status = new Promise<number>((resolve, reject) => {
      streamChat(port, reject, (res) => {
        res.pause(); // never read
        res.on('error', () => undefined);
        resolve(res.statusCode ?? 0);
      });
    });
    expect(await status).toBe(200);
    await expect.poll(() => upstream!.open, { timeout: 5000 }).toBe(1);
    expect(await connections()).toBe(1);
    // Closed within the stall time (plus the time to fill the socket), the upstream call with it.
    await expect.poll(() => upstream!.open, { timeout: 15_000 }).toBe(0);
    expect(upstream!.aborted).toBe(1);
    await expect.poll(connections, { timeout: 5000 }).toBe(0);
  });

  it('a client that reads slowly but keeps reading gets the whole stream', async () => {
    const port = await serving({ stream_stall_seconds: 1 }, { chunks: 20, delayMs: 20 });
    const text = await new Promise<string>((resolve, reject) => {
      streamChat(port, reject, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString();
          res.pause();
          setTimeout(() => res.resume(), 100);
        });
        res.on('end', () => resolve(body));
      });
    });
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});
