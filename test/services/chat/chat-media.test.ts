import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlowUpstream, startSlowUpstream } from '../../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';
import { pngBytes } from '../tokenizer/fixtures.js';

/**
 * Chat media URLs for an upstream engine with vision are fetched by the server through the guarded
 * fetcher (every redirect re-checked, bounded) and handed upstream inline as `data:` URLs: the
 * upstream never gets a URL to follow into the server's network. 127.0.0.1 is on the allow-list
 * here (the media server below); 127.0.0.2, another loopback address, is not.
 */

interface Counted {
  server: Server;
  origin: string;
  connections: number;
}

async function serve(host: string, handler: Parameters<typeof createServer>[1]): Promise<Counted> {
  const server = createServer(handler);
  const counted: Counted = { server, origin: '', connections: 0 };
  server.on('connection', () => {
    counted.connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  counted.origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return counted;
}

const PNG = pngBytes(4, 3);
let upstream: SlowUpstream;
let media: Counted;
let inside: Counted;
let t: TestApp;

beforeAll(async () => {
  upstream = await startSlowUpstream({ chunks: 2, delayMs: 1 });
  inside = await serve('127.0.0.2', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  media = await serve('127.0.0.1', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect')
      return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
    if (url.pathname === '/cat.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (url.pathname === '/cat-untyped') return void res.writeHead(200).end(PNG);
    if (url.pathname === '/huge.png')
      return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(6 * 1024 * 1024));
    if (url.pathname === '/page.html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>hi</p>');
    res.writeHead(404).end();
  });
  t = await createTestApp({
    embedded: { default_model: '' },
    reader: { allow_hosts: ['127.0.0.1'] },
    models: {
      'gen-4.6': {
        deployments: [{ engine: 'openai-compatible', base_url: upstream.baseUrl, model: 'stand-in', vision: true }],
      },
    },
  });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
  for (const s of [media, inside]) {
    s?.server.closeAllConnections();
    s?.server.close();
  }
});

const ask = (item: Record<string, unknown>) => ({
  model: 'gen-4.6',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, item] }],
});
const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const video = (url: string) => ({ type: 'video_url', video_url: { url } });
/** The media URL the upstream received in its last request. */
const lastUpstreamUrl = (): string => {
  const body = upstream.bodies.at(-1) as { messages: { content: { image_url?: { url: string } }[] }[] };
  return body.messages[0]!.content[1]!.image_url!.url;
};

describe('chat media URLs on an upstream engine with vision', () => {
  it.each([
    ['loopback', image('http://127.0.0.2:9/cat.png'), 'messages[0].content[1].image_url.url', 'loopback'],
    ['private', image('http://10.1.2.3/cat.png'), 'messages[0].content[1].image_url.url', 'private'],
    [
      'link-local (cloud metadata)',
      video('http://169.254.169.254/latest/'),
      'messages[0].content[1].video_url.url',
      'cloud metadata',
    ],
    ['IPv6 loopback', image('http://[::1]/x.png'), 'messages[0].content[1].image_url.url', 'loopback'],
  ])(
    'refuses a %s address with 1214 naming the item, without calling the upstream',
    async (_name, item, field, range) => {
      const before = upstream.requests;
      const res = await t.post('/paas/v4/chat/completions', ask(item));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 1214 });
      expect(String(res.body['message'])).toContain(field);
      expect(String(res.body['message']).toLowerCase()).toContain(range);
      expect(upstream.requests).toBe(before);
    },
  );

  it.each([
    ['to another loopback address', () => `${inside.origin}/cat.png`, 'loopback'],
    ['to a cloud metadata endpoint', () => 'http://169.254.169.254/latest/meta-data/', 'cloud metadata'],
  ])('refuses a redirect %s from an allowed host: the upstream never sees a URL', async (_name, target, range) => {
    const before = upstream.requests;
    const res = await t.post(
      '/paas/v4/chat/completions',
      ask(image(`${media.origin}/redirect?to=${encodeURIComponent(target())}`)),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1214 });
    expect(String(res.body['message'])).toContain('messages[0].content[1].image_url.url');
    expect(String(res.body['message'])).toContain('it redirects to');
    expect(String(res.body['message'])).toContain(range);
    expect(upstream.requests).toBe(before);
    expect(inside.connections).toBe(0);
  });

  it('hands a fetched image to the upstream inline, as a data: URL', async () => {
    const res = await t.post('/paas/v4/chat/completions', ask(image(`${media.origin}/cat.png`)));
    expect(res.status).toBe(200);
    expect(lastUpstreamUrl()).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    // Without a content type, the first bytes tell.
    expect((await t.post('/paas/v4/chat/completions', ask(image(`${media.origin}/cat-untyped`)))).status).toBe(200);
    expect(lastUpstreamUrl()).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
  });

  it('refuses an image over 5 MB and a page that is no image, naming the item', async () => {
    const huge = await t.post('/paas/v4/chat/completions', ask(image(`${media.origin}/huge.png`)));
    expect(huge.status).toBe(400);
    expect(String(huge.body['message'])).toMatch(/image_url\.url: .*limit is 5 MB/);
    const page = await t.post('/paas/v4/chat/completions', ask(image(`${media.origin}/page.html`)));
    expect(page.status).toBe(400);
    expect(String(page.body['message'])).toContain('is not an image (content type text/html');
  });

  it('refuses schemes other than http(s) and data:', async () => {
    const res = await t.post('/paas/v4/chat/completions', ask(image('file:///etc/passwd')));
    expect(res.status).toBe(400);
    expect(String(res.body['message'])).toContain('must be an http(s) URL, a data: URL or Base64');
  });

  it('forwards inline images as they are', async () => {
    const before = upstream.requests;
    const inline = await t.post('/paas/v4/chat/completions', ask(image('data:image/png;base64,iVBORw0KGgo=')));
    expect(inline.status).toBe(200);
    expect(lastUpstreamUrl()).toBe('data:image/png;base64,iVBORw0KGgo=');
    const base64 = await t.post('/paas/v4/chat/completions', ask(image('iVBORw0KGgo=')));
    expect(base64.status).toBe(200);
    expect(upstream.requests).toBe(before + 2);
  });
});
