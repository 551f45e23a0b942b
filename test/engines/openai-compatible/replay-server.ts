import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const FIXTURES = new URL('./fixtures/', import.meta.url);

export const fixtureText = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');
export const fixtureBytes = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

/** A recorded SSE body split into its events, each with its trailing blank line. */
export function sseEvents(name: string): string[] {
  return fixtureText(name)
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) => `${event}\n\n`);
}

export interface Reply {
  status?: number;
  contentType?: string;
  /** Written in order; `delayMs` before each one but the first. */
  pieces: (string | Uint8Array)[];
  delayMs?: number;
  /** Destroy the socket after the pieces, as a crashed upstream would. */
  cut?: boolean;
  /** Leave the response open after the pieces (a generation that goes on). */
  hang?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export type ReplayHandler = (request: RecordedRequest) => Reply;

/** An upstream on 127.0.0.1 that answers each request with a scripted reply and records what it saw. */
export class ReplayServer {
  readonly requests: RecordedRequest[] = [];
  /** Responses whose socket closed before the reply was fully written (client aborts). */
  closedEarly = 0;
  /** Connections accepted so far (keep-alive reuse shows as fewer connections than requests). */
  connections = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly closeWaiters: (() => void)[] = [];
  url = '';

  constructor(private handler: ReplayHandler) {
    this.server = createServer((req, res) => void this.serve(req, res));
    this.server.on('connection', (socket: Socket) => {
      socket.setNoDelay(true);
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(handler: ReplayHandler): Promise<ReplayServer> {
    const replay = new ReplayServer(handler);
    await new Promise<void>((resolve) => replay.server.listen(0, '127.0.0.1', resolve));
    replay.url = `http://127.0.0.1:${(replay.server.address() as AddressInfo).port}`;
    return replay;
  }

  setHandler(handler: ReplayHandler): void {
    this.handler = handler;
  }

  /** Resolves when a response is next closed early by the client. */
  nextEarlyClose(): Promise<void> {
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
    };
    this.requests.push(recorded);
    const reply = this.handler(recorded);
    let finished = false;
    res.on('close', () => {
      if (finished) return;
      this.closedEarly++;
      for (const waiter of this.closeWaiters.splice(0)) waiter();
    });
    res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/event-stream; charset=utf-8' });
    res.flushHeaders();
    for (let i = 0; i < reply.pieces.length; i++) {
      if (i > 0 && reply.delayMs) await sleep(reply.delayMs);
      if (res.destroyed) return;
      res.write(reply.pieces[i]!);
    }
    if (reply.cut) {
      await sleep(5);
      res.socket?.destroy();
      return;
    }
    if (reply.hang) return;
    finished = true;
    res.end();
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export const sse = (name: string, delayMs = 0): Reply => ({ pieces: sseEvents(name), delayMs });
export const json = (status: number, name: string): Reply => ({
  status,
  contentType: 'application/json',
  pieces: [fixtureText(name)],
});
