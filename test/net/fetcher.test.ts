import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeadline } from '../../src/net/deadline.js';
import { createGuardedFetcher, createUpstreamFetcher } from '../../src/net/fetcher.js';
import { NetError } from '../../src/net/net-error.js';
import type { LookupFunction } from '../../src/net/resolve.js';

let server: Server;
let port = 0;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect')
      return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/bomb')
      return void res
        .writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' })
        .end(gzipSync(Buffer.alloc(8 * 1024 * 1024)));
    if (url.pathname === '/stall') return void res.writeHead(200, { 'content-type': 'text/plain' }).write('a');
    if (url.pathname === '/echo') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.concat(chunks)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** `public.test` poses as a public host (for a CIDR entry), `evil.test` answers a loopback address. */
const lookup: LookupFunction = async (host) => {
  if (host === 'evil.test' || host === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
  throw new Error('ENOTFOUND');
};
const limits = { maxBytes: 1024 * 1024, maxRedirects: 3, idleTimeoutMs: 2_000, userAgent: 'test' };

async function failure(promise: Promise<unknown>): Promise<NetError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NetError);
  return error as NetError;
}

describe('guarded fetcher', () => {
  const fetcher = createGuardedFetcher({ lookup, allowHosts: ['public.test'] });
  afterAll(() => fetcher.destroy());

  it('fetches from an allowed host', async () => {
    const deadline = createDeadline(5);
    const page = await fetcher.get(`http://public.test:${port}/`, limits, deadline);
    deadline.dispose();
    expect(page.body.toString()).toBe('hello');
  });

  it('re-checks every redirect hop before connecting', async () => {
    const before = requests;
    const target = `http://evil.test:${port}/`;
    const error = await failure(
      fetcher.get(`http://public.test:${port}/redirect?to=${encodeURIComponent(target)}`, limits, createDeadline(5)),
    );
    expect(error.failure).toBe('blocked');
    expect(error.message).toContain(`it redirects to ${target}`);
    expect(error.message).toContain('evil.test resolves to an address in the loopback range');
    expect(error.message).not.toContain('127.0.0.1');
    expect(requests).toBe(before + 1);
  });

  it('bounds the body after decompression', async () => {
    const error = await failure(fetcher.get(`http://public.test:${port}/bomb`, limits, createDeadline(5)));
    expect(error.failure).toBe('too-large');
    expect(error.details.limit).toBe(limits.maxBytes);
  });

  it('bounds the time: a server that stops sending is a stalled fetch', async () => {
    const error = await failure(
      fetcher.get(`http://public.test:${port}/stall`, { ...limits, idleTimeoutMs: 200 }, createDeadline(5)),
    );
    expect(error.failure).toBe('stalled');
  });

  it('refuses other schemes as an invalid URL', async () => {
    const error = await failure(fetcher.get('file:///etc/passwd', limits, createDeadline(5)));
    expect(error.failure).toBe('invalid-url');
    expect(error.refused).toBe(true);
  });

  it('a send on a guarded fetcher is checked too', async () => {
    const error = await failure(
      fetcher.send(
        { url: new URL(`http://evil.test:${port}/echo`), method: 'POST', body: 'x' },
        { maxBytes: 1024, idleTimeoutMs: 1_000, signal: new AbortController().signal },
      ),
    );
    expect(error.failure).toBe('blocked');
  });
});

describe('upstream fetcher', () => {
  const fetcher = createUpstreamFetcher();
  afterAll(() => fetcher.destroy());

  it('reaches the endpoint the operator configured, on loopback', async () => {
    const answer = await fetcher.send(
      { url: new URL(`http://127.0.0.1:${port}/echo`), method: 'POST', body: 'spans' },
      { maxBytes: 1024, idleTimeoutMs: 1_000, signal: new AbortController().signal },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('spans');
  });

  it('bounds the answer as well', async () => {
    const error = await failure(
      fetcher.send(
        { url: new URL(`http://127.0.0.1:${port}/bomb`), method: 'GET' },
        { maxBytes: 1024, idleTimeoutMs: 1_000, signal: new AbortController().signal },
      ),
    );
    expect(error.failure).toBe('too-large');
  });

  it('a cancelled send ends with the caller reason, not a NetError', async () => {
    const controller = new AbortController();
    const reason = new Error('client left');
    const pending = fetcher.send(
      { url: new URL(`http://127.0.0.1:${port}/stall`), method: 'GET' },
      { maxBytes: 1024, idleTimeoutMs: 5_000, signal: controller.signal },
    );
    setTimeout(() => controller.abort(reason), 50);
    await expect(pending).rejects.toBe(reason);
  });
});
