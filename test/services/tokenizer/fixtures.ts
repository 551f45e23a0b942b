import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG's signature, IHDR (8-bit RGB) and IEND: enough for a header reader. */
export function pngBytes(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, data: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
};

/** SOI, a JFIF APP0 and a comment before the frame header (marker `sof`), then EOI. */
export function jpegBytes(width: number, height: number, sof = 0xc0): Buffer {
  const frame = Buffer.alloc(6 + 3 * 3);
  frame[0] = 8;
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  frame[5] = 3;
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    Buffer.from([0xff, 0xff]), // fill bytes before the next marker
    segment(0xfe, Buffer.from('a comment', 'latin1')),
    segment(sof, frame),
    Buffer.from([0xff, 0xd9]),
  ]);
}

export const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

export interface MediaServer {
  origin: string;
  /** TCP connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

/** An http server on 127.0.0.1 answering `routes[path]`, 404 otherwise. */
export async function startMediaServer(routes: Record<string, Route>): Promise<MediaServer> {
  const server: Server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route) route(req, res);
    else res.writeHead(404).end();
  });
  const state = {
    origin: '',
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', () => {
    state.connections++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export const send =
  (type: string, body: Buffer): Route =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': body.length }).end(body);
  };

/** Awaits a rejection with an ApiError of `code` whose message contains every `parts`. */
export async function apiError(promise: Promise<unknown>, code: number, ...parts: string[]): Promise<string> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e as { code?: number; message: string },
  );
  if (error.code !== code) throw new Error(`expected ApiError ${code}, got ${error.code}: ${error.message}`);
  for (const part of parts) {
    if (!error.message.includes(part)) throw new Error(`"${error.message}" does not contain "${part}"`);
  }
  return error.message;
}

/** Bytes a `streamBody` route has handed to its sockets, and responses it has seen closed early. */
export interface SentCounter {
  bytes: number;
  aborted: number;
}

/**
 * A route that sends `size` bytes (beginning with `head`) in 64 KB writes, honouring backpressure,
 * optionally slowly, counting what it wrote; it stops when the client goes away.
 */
export const streamBody =
  (
    type: string,
    head: Buffer,
    size: number,
    sent: SentCounter,
    options: { declareLength?: boolean; delayMs?: number; ranges?: boolean } = {},
  ): Route =>
  (req, res) => {
    const range = options.ranges ? /^bytes=0-(\d+)$/.exec(req.headers.range ?? '') : null;
    const whole = size;
    if (range) size = Math.min(size, Number(range[1]) + 1);
    res.writeHead(range ? 206 : 200, {
      'content-type': type,
      ...(options.declareLength === false ? {} : { 'content-length': size }),
      ...(range ? { 'content-range': `bytes 0-${size - 1}/${whole}` } : {}),
    });
    let at = 0;
    let gone = false;
    res.on('close', () => {
      if (at < size) {
        gone = true;
        sent.aborted++;
      }
    });
    const chunk = Buffer.alloc(64 * 1024, 0x41);
    const pump = () => {
      while (!gone && at < size) {
        const piece = at < head.length ? head.subarray(at, at + chunk.length) : chunk;
        const n = Math.min(piece.length, size - at);
        at += n;
        sent.bytes += n;
        const more = res.write(piece.subarray(0, n));
        if (at >= size) return void res.end();
        if (options.delayMs) return void setTimeout(pump, options.delayMs);
        if (!more) return void res.once('drain', pump);
      }
    };
    pump();
  };
