import { connect } from 'node:net';
import type { RawResponse } from './support.js';

export interface RawExchange extends RawResponse {
  /** Every byte the server sent, head and body as they came over the socket. */
  bytes: Buffer;
  /** Whether a chunked body ended with its terminating zero-length chunk. */
  terminated: boolean;
}

/** Decodes a chunked body; `terminated` only when the zero-length last chunk arrived. */
function dechunk(body: Buffer): { text: string; terminated: boolean } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return { text: Buffer.concat(parts).toString('utf8'), terminated: false };
    const size = Number.parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return { text: Buffer.concat(parts).toString('utf8'), terminated: true };
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

function parse(bytes: Buffer): RawExchange {
  const split = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(head[0]?.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(split + 4);
  const { text, terminated } =
    headers['transfer-encoding'] === 'chunked' ? dechunk(rest) : { text: rest.toString('utf8'), terminated: true };
  return { status, headers, text, bytes, terminated };
}

/** Whether the whole response is in: a chunked body's last chunk, or Content-Length bytes. */
function complete(bytes: Buffer): boolean {
  const split = bytes.indexOf('\r\n\r\n');
  if (split < 0) return false;
  const { headers } = parse(bytes);
  if (headers['transfer-encoding'] === 'chunked') return dechunk(bytes.subarray(split + 4)).terminated;
  const length = headers['content-length'];
  return length !== undefined && bytes.length - split - 4 >= Number(length);
}

/**
 * A POST over a plain socket (`Connection: close`), read to the end: what a client sees on the
 * wire, byte for byte, with no HTTP client repairing or hiding anything.
 */
export function rawPost(base: string, path: string, key: string, body: unknown): Promise<RawExchange> {
  const { hostname, port } = new URL(base);
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(parse(Buffer.concat(received)));
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      // An event stream keeps the connection alive whatever the client asked: stop at the body's end.
      if (complete(Buffer.concat(received))) settle();
    });
    socket.on('error', reject);
    socket.on('close', settle);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\nConnection: close\r\n\r\n`,
    );
    // Not `end`: a half-closed socket makes the server drop the request; `Connection: close` ends it.
    socket.write(payload);
  });
}
