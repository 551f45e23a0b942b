import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How the stand-in misbehaves:
 * - `endless-line`: one SSE `data:` line that never ends (1 MiB writes, no newline);
 * - `endless-events`: well-formed content events that never stop (an upstream ignoring max_tokens);
 * - `endless-pings`: SSE comments forever, no data (a reply that only grows);
 * - `endless-json`: an `application/json` body that never ends (stream: false);
 * - `endless-error`: an HTTP 500 whose body never ends;
 * - `stall`: headers, then silence; `stall-after`: a few content events, then silence;
 * - `whole-too-long`: a JSON reply whose usage says more completion tokens than were asked for.
 */
export type Misbehaviour =
  | 'endless-line'
  | 'endless-events'
  | 'endless-pings'
  | 'endless-json'
  | 'endless-error'
  | 'stall'
  | 'stall-after'
  | 'whole-too-long';

export interface MisbehavingUpstream {
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:PORT/v1. */
  baseUrl: string;
  mode: Misbehaviour;
  /** Body bytes written so far, over every reply. */
  readonly written: number;
  /** Replies whose client closed the connection before the stand-in stopped writing. */
  readonly closedByClient: number;
  close(): Promise<void>;
}

const CHUNK = Buffer.alloc(1 << 20, 'b');
const event = (text: string): string =>
  `data: {"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(text)}},"finish_reason":null}]}\n\n`;

/** A stand-in chat upstream (loopback only) that sends oversized, endless or stalled replies. */
export async function startMisbehavingUpstream(mode: Misbehaviour): Promise<MisbehavingUpstream> {
  let written = 0;
  let closedByClient = 0;
  const sockets = new Set<Socket>();
  const write = (res: ServerResponse, piece: string | Buffer): Promise<boolean> => {
    if (res.destroyed) return Promise.resolve(false);
    written += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    if (res.write(piece)) return Promise.resolve(!res.destroyed);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        res.off('drain', onDrain);
        res.off('close', onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      res.once('drain', onDrain);
      res.once('close', onClose);
    });
  };
  const forever = async (res: ServerResponse, piece: () => string | Buffer): Promise<void> => {
    while (await write(res, piece())) {
      // Yield now and then so that the server's other sockets are served.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.on('close', () => {
        if (!res.writableFinished) closedByClient++;
      });
      const sse = { 'content-type': 'text/event-stream' };
      switch (state.mode) {
        case 'endless-line':
          res.writeHead(200, sse);
          void write(res, 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"').then(() =>
            forever(res, () => CHUNK),
          );
          return;
        case 'endless-events': {
          res.writeHead(200, sse);
          let i = 0;
          void forever(res, () => event(`w${i++} `));
          return;
        }
        case 'endless-pings':
          res.writeHead(200, sse);
          void forever(res, () => `: ${'p'.repeat(1000)}\n\n`);
          return;
        case 'endless-json':
          res.writeHead(200, { 'content-type': 'application/json' });
          void write(res, '{"choices":[{"index":0,"message":{"content":"').then(() => forever(res, () => CHUNK));
          return;
        case 'endless-error':
          res.writeHead(500, { 'content-type': 'text/plain' });
          void forever(res, () => CHUNK);
          return;
        case 'stall':
          res.writeHead(200, sse);
          res.flushHeaders();
          return;
        case 'stall-after':
          res.writeHead(200, sse);
          void write(res, event('Hello') + event(' there'));
          return;
        case 'whole-too-long':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              choices: [
                { index: 0, message: { role: 'assistant', content: 'word '.repeat(50) }, finish_reason: 'stop' },
              ],
              usage: { prompt_tokens: 5, completion_tokens: 50, total_tokens: 55 },
            }),
          );
          return;
      }
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state = {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    mode,
    get written() {
      return written;
    },
    get closedByClient() {
      return closedByClient;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return state;
}
