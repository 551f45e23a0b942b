import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenizerBody } from '../../../src/api/tokenizer.js';
import { imageTokens, VISION_MODELS } from '../../../src/services/tokenizer/media/formula.js';
import { countMedia } from '../../../src/services/tokenizer/media/media-counter.js';
import type { MediaOptions } from '../../../src/services/tokenizer/media/options.js';
import { apiError, dataUrl, jpegBytes, type MediaServer, pngBytes, send, startMediaServer } from './fixtures.js';

const rule = VISION_MODELS['gen-4.6v']!;
const FIELD = 'messages[0].content[1].image_url.url';

const withImage = (url: string): TokenizerBody['messages'] => [
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image_url', image_url: { url } },
    ],
  },
];

const count = (url: string, options: MediaOptions = {}) => countMedia(withImage(url), 'gen-4.6v', rule, options);

describe('image sources', () => {
  let server: MediaServer;
  const big = Buffer.concat([pngBytes(100, 100), Buffer.alloc(5 * 1024 * 1024)]);
  beforeAll(async () => {
    server = await startMediaServer({
      '/cat.png': send('image/png', pngBytes(1280, 720)),
      '/photo': send('application/octet-stream', jpegBytes(640, 480)),
      '/big.png': send('image/png', big),
      '/big-chunked.png': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(big.subarray(0, 1024 * 1024));
        res.end(big.subarray(1024 * 1024));
      },
      '/anim.gif': send('image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00', 'latin1')),
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const allowed: MediaOptions = { allowHosts: ['127.0.0.1'] };

  it('decodes bare Base64', async () => {
    const result = await count(pngBytes(640, 480).toString('base64'));
    expect(result).toEqual({ imageTokens: imageTokens(640, 480, rule.image), videoTokens: 0 });
    expect(result.imageTokens).toBe(23 * 17 + 2);
  });

  it('decodes data: URLs, reading the format from the bytes rather than the declared type', async () => {
    expect((await count(dataUrl('image/jpeg', jpegBytes(1280, 720)))).imageTokens).toBe(46 * 26 + 2);
    expect((await count(dataUrl('image/gif', pngBytes(28, 28)))).imageTokens).toBe(18);
  });

  it('fetches an http URL on 127.0.0.1 when the allow-list names it', async () => {
    expect((await count(`${server.origin}/cat.png`, allowed)).imageTokens).toBe(46 * 26 + 2);
    expect((await count(`${server.origin}/photo`, allowed)).imageTokens).toBe(23 * 17 + 2);
  });

  it('refuses 127.0.0.1 without the allow-list, before connecting', async () => {
    const before = server.connections;
    await apiError(count(`${server.origin}/cat.png`), 1214, FIELD, '127.0.0.1', 'loopback');
    expect(server.connections).toBe(before);
  });

  it('refuses a host that resolves to a private address', async () => {
    const lookup = async () => [{ address: '10.20.30.40', family: 4 }];
    const message = await apiError(count('http://images.example.test/a.png', { lookup }), 1214, FIELD);
    expect(message).toContain('images.example.test resolves to an address in the private range');
    expect(message).not.toMatch(/10\.20\.30\.40/);
  });

  it('refuses images over 5 MB, whether declared, streamed or inline', async () => {
    await apiError(count(`${server.origin}/big.png`, allowed), 1214, FIELD, '5 MB');
    await apiError(count(`${server.origin}/big-chunked.png`, allowed), 1214, FIELD, '5 MB');
    await apiError(count(big.toString('base64')), 1214, FIELD, '5 MB');
    await apiError(count(dataUrl('image/png', big)), 1214, FIELD, '5 MB');
  });

  it('refuses images over 6000x6000 pixels and accepts 6000x6000', async () => {
    await apiError(count(dataUrl('image/png', pngBytes(6001, 10))), 1214, FIELD, '6001x10', '6000x6000');
    await apiError(count(dataUrl('image/jpeg', jpegBytes(10, 6001))), 1214, FIELD, '10x6001');
    expect((await count(dataUrl('image/png', pngBytes(6000, 6000)))).imageTokens).toBe(35 * 35 + 2);
  });

  it('refuses other formats, naming the field and the allowed formats', async () => {
    await apiError(count(`${server.origin}/anim.gif`, allowed), 1214, FIELD, 'GIF', 'jpg, jpeg, png');
    await apiError(count(dataUrl('image/webp', Buffer.from('RIFF\0\0\0\0WEBPVP8 '))), 1214, FIELD, 'WebP');
    await apiError(count(dataUrl('image/svg+xml', Buffer.from('<svg/>'))), 1214, FIELD, 'SVG');
    await apiError(count('data:image/png,not%20an%20image'), 1214, FIELD, 'not a JPEG or PNG');
  });

  it('refuses values that are neither URLs nor Base64', async () => {
    await apiError(count('ftp://example.test/a.png'), 1214, FIELD, 'http(s) URL');
    await apiError(count('not base64!'), 1214, FIELD, 'Base64');
  });

  it('reports a failing image server as 1234', async () => {
    await apiError(count(`${server.origin}/missing.png`, allowed), 1234, FIELD, 'HTTP 404');
  });
});
