/**
 * The floor for the gateway benchmark: a bare pass-through proxy in a process of its own. node:http
 * in, the request body read whole, one undici dispatch to the upstream (same Agent settings as
 * the openai-compatible engine: keep-alive, pipelining 1), the response bytes written to the client
 * as they arrive — no auth of its own (the client's authorization header is passed on), no parsing,
 * no re-encoding, no usage record. Reports its CPU time like the others, so the table shows what any
 * Node proxy costs on the machine that runs the bench.
 */
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { serveParent } from './ipc.js';

/** `bare-proxy.ts <upstream port>` (the fake upstream) or `bare-proxy.ts <upstream origin> <path>`. */
const [target, upstreamPath = '/v1/chat/completions'] = process.argv.slice(2);
const origin = /^\d+$/.test(target ?? '') ? `http://127.0.0.1:${target}` : target;
if (!origin?.startsWith('http://')) throw new Error('usage: bare-proxy.ts <upstream port> | <origin> <path>');
const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 4_000 });

/** Relays one upstream response into `res` as undici pushes it. */
class Relay implements Dispatcher.DispatchHandler {
  constructor(private readonly res: ServerResponse) {}
  onRequestStart(): void {}
  onResponseStart(_c: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    const type = headers['content-type'];
    this.res.writeHead(statusCode, { 'content-type': typeof type === 'string' ? type : 'application/octet-stream' });
  }
  onResponseData(_c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.res.write(chunk);
  }
  onResponseEnd(): void {
    this.res.end();
  }
  onResponseError(_c: Dispatcher.DispatchController, err: Error): void {
    if (this.res.headersSent) this.res.destroy(err);
    else this.res.writeHead(502).end();
  }
}

const server = http.createServer((req, res) => {
  const parts: Buffer[] = [];
  req.on('data', (chunk: Buffer) => parts.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(parts).toString('utf8');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: req.headers.accept ?? 'application/json',
    };
    if (req.headers.authorization) headers['authorization'] = req.headers.authorization;
    agent.dispatch({ origin, path: upstreamPath, method: 'POST', headers, body }, new Relay(res));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  serveParent(
    {
      cpu: () => process.cpuUsage(),
      stop: async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await agent.close();
        return null;
      },
    },
    { origin: `http://127.0.0.1:${port}` },
  );
});
// Stops by itself after 20 minutes whatever happens.
setTimeout(() => process.exit(3), 20 * 60_000).unref();
