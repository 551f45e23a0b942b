import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAIN_REPLY } from '../../src/test-models/programmed-model.js';
import { type AgentApp, type AgentReply, agentBody, startAgentApp } from './agents-support.js';

interface Item {
  type: string;
  tag_cn: string;
  tag_en: string;
  file_url?: string;
  image_url?: string;
}
type Conversation = { conversation_id: string; agent_id: string; choices: { message: { content: Item[] }[] }[] };

let app: AgentApp;
beforeAll(async () => {
  app = await startAgentApp();
});
afterAll(() => app?.close());

const conversation = (conversation_id: string, custom_variables?: unknown, key?: string) =>
  app.t.post('/v1/agents/conversation', { agent_id: 'general_translation', conversation_id, custom_variables }, key);
const items = (body: Record<string, unknown>) => (body as unknown as Conversation).choices[0]!.message[0]!.content;
/** A served file, fetched the way a client would (the URL is absolute). */
const fetchFile = async (url: string) => {
  const u = new URL(url);
  const res = await app.t.app.inject({ method: 'GET', url: u.pathname });
  return { status: res.statusCode, type: String(res.headers['content-type']), bytes: res.rawPayload };
};
/** Pixels darker than mid-grey: the text was drawn, not just a white page. */
async function darkPixels(png: Buffer): Promise<number> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) n++;
  return n;
}
const pngSize = (b: Buffer) => ({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) });

/** A conversation stored as a run would store it, with text in several scripts. */
const MULTI = 'Hello world.\n\nПривет, мир!\n\n你好，世界。\n\nمرحبا بالعالم\n\n안녕하세요';
async function storedConversation(id: string, translation: string): Promise<void> {
  // A key is `<id>.<secret>`.
  const keyId = app.t.key.split('.')[0]!;
  await app.t.services.store.conversations.save({
    id,
    keyId,
    agentId: 'general_translation',
    settings: { target_lang: 'zh-CN' },
    sourceText: 'source',
    translation,
    usage: { promptTokens: 1, completionTokens: 1, totalCalls: 1 },
    createdAt: Date.now(),
  });
}

describe('POST /v1/agents/conversation', () => {
  it('returns the translation of a run as a UTF-8 text file', async () => {
    const run = await app.t.post('/v1/agents', agentBody());
    const id = (run.body as unknown as AgentReply).conversation_id;
    const res = await conversation(id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ conversation_id: id, agent_id: 'general_translation' });
    const list = items(res.body);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ type: 'file_url', tag_cn: '译文', tag_en: 'translation' });
    expect(list[0]!.file_url).toMatch(/^http:\/\/localhost(:\d+)?\/files\/[A-Za-z0-9_-]+\.txt$/);
    const file = await fetchFile(list[0]!.file_url!);
    expect(file.status).toBe(200);
    expect(file.type).toBe('text/plain; charset=UTF-8');
    expect(file.bytes.toString('utf8')).toBe(PLAIN_REPLY);
  });

  it('with include_pdf and pages: a real PDF and PNGs of its pages at the size asked', async () => {
    await storedConversation('multi-1', MULTI);
    const res = await conversation('multi-1', {
      include_pdf: true,
      pages: [
        { position: 1, width: 595, height: 842 },
        { position: 1, width: 300, height: 200 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = items(res.body);
    expect(list.map((i) => [i.type, i.tag_cn, i.tag_en])).toEqual([
      ['file_url', '译文', 'translation'],
      ['file_url', '译文PDF', 'translation_pdf'],
      ['image_url', '第1页', 'page_1'],
      ['image_url', '第1页', 'page_1'],
    ]);
    const pdf = await fetchFile(list[1]!.file_url!);
    expect(pdf.type).toBe('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // Opened with pdfjs: one A4 page whose text is the translation's.
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: new Uint8Array(pdf.bytes), verbosity: 0 }).promise;
    expect(doc.numPages).toBe(1);
    const page = await doc.getPage(1);
    const viewport = page.getViewport({ scale: 1 });
    expect([viewport.width, viewport.height]).toEqual([595, 842]);
    const text = (await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join('');
    for (const word of ['Hello', 'world', 'Привет', '你好', '世界', '안녕하세요']) expect(text).toContain(word);
    await doc.destroy();
    // Subset fonts: every script of the text in well under a megabyte.
    expect(pdf.bytes.length).toBeLessThan(200_000);
    const png = await fetchFile(list[2]!.image_url!);
    expect(png.type).toBe('image/png');
    expect(pngSize(png.bytes)).toEqual({ width: 595, height: 842 });
    expect(await darkPixels(png.bytes)).toBeGreaterThan(500);
    expect(pngSize((await fetchFile(list[3]!.image_url!)).bytes)).toEqual({ width: 300, height: 200 });
  });

  it('a long translation makes several pages; a page past the last is a 1214 naming the item', async () => {
    await storedConversation(
      'long-1',
      Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of the translation.`).join('\n'),
    );
    const ok = await conversation('long-1', { pages: [{ position: 3, width: 100, height: 141 }] });
    expect(ok.status).toBe(200);
    expect(items(ok.body).map((i) => i.tag_en)).toEqual(['translation', 'page_3']);
    const bad = await conversation('long-1', {
      pages: [
        { position: 1, width: 10, height: 10 },
        { position: 9, width: 10, height: 10 },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 1214 });
    expect(String(bad.body['message'])).toContain('custom_variables.pages[1].position');
  });

  it('refuses a page image too large to render (1214)', async () => {
    await storedConversation('big-1', 'x');
    const res = await conversation('big-1', { pages: [{ position: 1, width: 20000, height: 20000 }] });
    expect(res.status).toBe(400);
    expect(String(res.body['message'])).toContain('custom_variables.pages[0]');
  });

  it('a repeat retrieval with the same options returns the same files', async () => {
    await storedConversation('repeat-1', MULTI);
    const options = { include_pdf: true, pages: [{ position: 1, width: 120, height: 170 }] };
    const first = await conversation('repeat-1', options);
    const second = await conversation('repeat-1', options);
    expect(first.status).toBe(200);
    expect(items(second.body)).toEqual(items(first.body));
    const other = await conversation('repeat-1', { include_pdf: true });
    expect(items(other.body)[0]!.file_url).not.toBe(items(first.body)[0]!.file_url);
  });

  it('refuses pages whose pixels together pass artifact_max_pixels (1214), before rendering', async () => {
    await storedConversation('pixels-1', 'x');
    const pages = Array.from({ length: 3 }, () => ({ position: 1, width: 5000, height: 4000 }));
    const res = await conversation('pixels-1', { pages });
    expect(res.status).toBe(400);
    expect(String(res.body['message'])).toContain('agents.general_translation.artifact_max_pixels');
  });

  it("another key's conversation and an unknown one are 404 1233", async () => {
    const run = await app.t.post('/v1/agents', agentBody());
    const id = (run.body as unknown as AgentReply).conversation_id;
    const other = await app.t.newKey();
    const res = await conversation(id, undefined, other);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 1233, error: { code: '1233' } });
    const unknown = await conversation('nope-123');
    expect(unknown.status).toBe(404);
    expect(unknown.body['code']).toBe(1233);
  });
});
