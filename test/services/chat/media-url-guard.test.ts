import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SlowUpstream, startSlowUpstream } from '../../helpers/slow-chat-upstream.js';
import { createTestApp, type TestApp } from '../../helpers/test-app.js';

/**
 * Chat media URLs forwarded to an upstream engine with vision pass the reader's address guard
 * (issue 19): a URL into the server's own network is a 1214 naming the item, and the upstream is
 * never called with it.
 */

let upstream: SlowUpstream;
let t: TestApp;
beforeAll(async () => {
  upstream = await startSlowUpstream({ chunks: 2, delayMs: 1 });
  t = await createTestApp({
    embedded: { default_model: '' },
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
});

const ask = (item: Record<string, unknown>) => ({
  model: 'gen-4.6',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, item] }],
});
const image = (url: string) => ({ type: 'image_url', image_url: { url } });
const video = (url: string) => ({ type: 'video_url', video_url: { url } });

describe('chat media URLs on an upstream engine with vision', () => {
  it.each([
    ['loopback', image('http://127.0.0.1:9/cat.png'), 'messages[0].content[1].image_url.url', 'loopback'],
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

  it('refuses schemes other than http(s) and data:', async () => {
    const res = await t.post('/paas/v4/chat/completions', ask(image('file:///etc/passwd')));
    expect(res.status).toBe(400);
    expect(String(res.body['message'])).toContain('must be an http(s) URL, a data: URL or Base64');
  });

  it('forwards inline images and public URLs', async () => {
    const inline = await t.post('/paas/v4/chat/completions', ask(image('data:image/png;base64,iVBORw0KGgo=')));
    expect(inline.status).toBe(200);
    const base64 = await t.post('/paas/v4/chat/completions', ask(image('iVBORw0KGgo=')));
    expect(base64.status).toBe(200);
    const publicUrl = await t.post('/paas/v4/chat/completions', ask(image('http://93.184.216.34/cat.png')));
    expect(publicUrl.status).toBe(200);
    expect(upstream.requests).toBe(3);
  });
});
