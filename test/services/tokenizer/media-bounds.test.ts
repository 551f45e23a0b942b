import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenizerBody } from '../../../src/api/tokenizer.js';
import { VISION_MODELS } from '../../../src/services/tokenizer/media/formula.js';
import { countMedia } from '../../../src/services/tokenizer/media/media-counter.js';
import type { MediaOptions } from '../../../src/services/tokenizer/media/options.js';
import { apiError, type MediaServer, pngBytes, type SentCounter, startMediaServer, streamBody } from './fixtures.js';

/**
 * The bounds on the tokenizer's media: a file count, formats told by the first bytes
 * rather than a whole download, one byte budget and one deadline per request, and every fetch
 * stopped when the client leaves. Each test counts the bytes the local server actually sent.
 */

type Item = Exclude<Extract<TokenizerBody['messages'][number], { role: 'user' }>['content'], string>[number];
const rule = VISION_MODELS['gen-4.6v']!;
const MB = 1024 * 1024;
const file = (url: string): Item => ({ type: 'file_url', file_url: { url } });
const image = (url: string): Item => ({ type: 'image_url', image_url: { url } });
const user = (items: Item[]): TokenizerBody['messages'] => [{ role: 'user', content: items }];
const zipEntry = (name: string) => {
  const header = Buffer.alloc(30);
  header.writeUInt32BE(0x504b0304, 0);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name, 'latin1')]);
};

let server: MediaServer;
let sent: SentCounter;
beforeAll(async () => {
  sent = { bytes: 0, aborted: 0 };
  const png = pngBytes(640, 480);
  server = await startMediaServer({
    '/doc': streamBody('application/pdf', Buffer.from('%PDF-1.7\n'), 16 * MB, sent, { ranges: true }),
    // A server that ignores Range, on a link of about 12 MB/s rather than loopback's speed.
    '/doc-whole': streamBody('application/pdf', Buffer.from('%PDF-1.7\n'), 16 * MB, sent, { delayMs: 5 }),
    '/octet-pdf': streamBody('application/octet-stream', Buffer.from('%PDF-1.4\n'), 16 * MB, sent),
    '/octet-docx': streamBody('application/octet-stream', zipEntry('[Content_Types].xml'), 4 * MB, sent),
    '/octet-zip': streamBody('application/octet-stream', zipEntry('photos/cat.jpg'), 4 * MB, sent),
    '/octet-text': streamBody('', Buffer.from('{"a":1}\n'), 2 * MB, sent),
    '/big.png': streamBody('image/png', png, 4 * MB, sent, { delayMs: 5 }),
    '/chunked.png': streamBody('image/png', png, 700 * 1024, sent, { declareLength: false }),
    '/slow.png': streamBody('image/png', png, 4 * MB, sent, { declareLength: false, delayMs: 50 }),
  });
});
afterAll(async () => {
  await server.close();
});

const allowed = (more: MediaOptions = {}): MediaOptions => ({ allowHosts: ['127.0.0.1'], ...more });
/** Bytes the server sent during `run`, once its sockets have settled. */
async function bytesSentBy(run: () => Promise<unknown>): Promise<number> {
  const before = sent.bytes;
  await run().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 100));
  return sent.bytes - before;
}

describe('file items', () => {
  it('are at most tokenizer.max_file_items (default 50): the 51st is refused before anything is fetched', async () => {
    const connections = server.connections;
    const items = Array.from({ length: 51 }, (_, i) => file(`${server.origin}/doc?i=${i}`));
    await apiError(
      countMedia(user(items), 'gen-4.6v', rule, allowed()),
      1214,
      'messages[0].content[50]',
      'at most 50 files',
      'tokenizer.max_file_items',
    );
    await apiError(
      countMedia(user(items.slice(0, 3)), 'gen-4.6v', rule, allowed({ maxFiles: 2 })),
      1214,
      'messages[0].content[2]',
      'at most 2 files',
    );
    expect(server.connections).toBe(connections);
  });

  it('have their format told by the content type and first bytes: a 16 MB PDF costs its first bytes only', async () => {
    const check = (path: string) => countMedia(user([file(`${server.origin}${path}`)]), 'gen-4.6v', rule, allowed());
    // Asked with a Range: the server sends 1 KB.
    expect(await bytesSentBy(() => expect(check('/doc')).resolves.toEqual({ imageTokens: 0, videoTokens: 0 }))).toBe(
      1024,
    );
    // A server that ignores the Range is cut off after the first read.
    const whole = await bytesSentBy(() =>
      expect(check('/doc-whole')).resolves.toEqual({ imageTokens: 0, videoTokens: 0 }),
    );
    expect(whole).toBeLessThan(MB);
  });

  it('served as application/octet-stream are told by their magic bytes', async () => {
    const check = (path: string) => countMedia(user([file(`${server.origin}${path}`)]), 'gen-4.6v', rule, allowed());
    await expect(check('/octet-pdf')).resolves.toEqual({ imageTokens: 0, videoTokens: 0 });
    await expect(check('/octet-docx')).resolves.toEqual({ imageTokens: 0, videoTokens: 0 });
    await expect(check('/octet-text')).resolves.toEqual({ imageTokens: 0, videoTokens: 0 });
    await apiError(check('/octet-zip'), 1214, 'file format is not accepted', 'application/octet-stream');
  });

  it('50 files of 16 MB fetch a small fraction of one', async () => {
    const items = Array.from({ length: 50 }, (_, i) => file(`${server.origin}/doc?n=${i}`));
    const bytes = await bytesSentBy(() => countMedia(user(items), 'gen-4.6v', rule, allowed()));
    expect(bytes).toBe(50 * 1024);
  });
});

describe('images', () => {
  it('with a declared length within the limit are read only as far as their header', async () => {
    let tokens = 0;
    const bytes = await bytesSentBy(async () => {
      tokens = (await countMedia(user([image(`${server.origin}/big.png`)]), 'gen-4.6v', rule, allowed())).imageTokens;
    });
    expect(tokens).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(2 * MB);
  });
});

describe('one byte budget per request (tokenizer.media_max_bytes)', () => {
  it('refuses the item that goes past it, naming the field and the limit', async () => {
    const items = [image(`${server.origin}/chunked.png`), image(`${server.origin}/chunked.png?2`)];
    const bytes = await bytesSentBy(() =>
      apiError(
        countMedia(user(items), 'gen-4.6v', rule, allowed({ maxFetchBytes: MB })),
        1214,
        'messages[0].content[1].image_url.url',
        'at most 1 MB together',
        'tokenizer.media_max_bytes',
      ),
    );
    expect(bytes).toBeLessThan(3 * MB);
  });
});

describe('one deadline per request (tokenizer.media_deadline_seconds)', () => {
  it('stops a slow fetch when the request time is up, naming the limit', async () => {
    const started = Date.now();
    await apiError(
      countMedia(user([image(`${server.origin}/slow.png`)]), 'gen-4.6v', rule, allowed({ deadlineSeconds: 1 })),
      1214,
      'messages[0].content[0].image_url.url',
      'at most 1 s together',
      'tokenizer.media_deadline_seconds',
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('a client that leaves', () => {
  it('stops every fetch: the server sees the connection closed and sends no more', async () => {
    const controller = new AbortController();
    const aborted = sent.aborted;
    const items = [image(`${server.origin}/slow.png?a`), image(`${server.origin}/slow.png?b`)];
    const counting = countMedia(user(items), 'gen-4.6v', rule, allowed(), controller.signal);
    await new Promise((r) => setTimeout(r, 300));
    controller.abort();
    await expect(counting).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 200));
    const after = sent.bytes;
    await new Promise((r) => setTimeout(r, 500));
    expect(sent.bytes).toBe(after);
    expect(sent.aborted).toBe(aborted + 1);
  });
});
