import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** A job as the backend saw it, in the engine-neutral terms the contract checks. */
export interface SeenJob {
  prompt: string;
  negative: string | undefined;
  width: number;
  height: number;
  seed: number;
  steps: number | undefined;
  sampler: string | undefined;
}

/** What a test can see and steer in a replay server of an image engine's wire. */
export interface ReplayControl {
  url: string;
  jobs: SeenJob[];
  /** Cancel calls the backend received (`interrupt`, `delete`, `disconnect`). */
  cancels: string[];
  /** `traceparent` headers received (tracing on). */
  traceparents: string[];
  /** `error`: the next jobs fail the way the real engine fails while running. */
  fail: 'none' | 'error';
  /** How long a job runs. */
  delayMs: number;
  /** Image format the backend makes; `native` forces a size whatever was asked. */
  format: 'png' | 'jpeg';
  native: { width: number; height: number } | undefined;
  close(): Promise<void>;
}

/** Real image bytes (a solid colour), as a diffusion backend would send them. */
export function imageBytes(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
}

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  res.writeHead(status, { 'content-type': type, 'content-length': bytes.length });
  res.end(bytes);
}

type Handler = (req: IncomingMessage, res: ServerResponse, control: ReplayControl) => Promise<void>;

/** Starts a loopback server on port 0 whose requests go to `handler`. */
export async function startReplay(handler: Handler, urlSuffix = ''): Promise<ReplayControl> {
  let server: Server | undefined;
  const control: ReplayControl = {
    url: '',
    jobs: [],
    cancels: [],
    traceparents: [],
    fail: 'none',
    delayMs: 0,
    format: 'png',
    native: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
  };
  server = createServer((req, res) => {
    const traceparent = req.headers['traceparent'];
    if (typeof traceparent === 'string') control.traceparents.push(traceparent);
    handler(req, res, control).catch((err: unknown) => {
      if (!res.headersSent) send(res, 500, `replay failure: ${String(err)}`, 'text/plain');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  control.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${urlSuffix}`;
  return control;
}

/** Waits `ms`, or less when `cut` resolves first (an interrupt); true when cut short. */
export function waitOrCut(ms: number, cut: Promise<void>): Promise<boolean> {
  return Promise.race([new Promise<boolean>((r) => setTimeout(() => r(false), ms)), cut.then(() => true)]);
}
