import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenizerBody } from '../../../src/api/tokenizer.js';
import { glmVisionRule, VISION_MODELS } from '../../../src/services/tokenizer/media/formula.js';
import { countMedia, visionRuleFor } from '../../../src/services/tokenizer/media/media-counter.js';
import { apiError, dataUrl, type MediaServer, pngBytes, send, startMediaServer } from './fixtures.js';

type Item = Exclude<Extract<TokenizerBody['messages'][number], { role: 'user' }>['content'], string>[number];

const IMAGE = dataUrl('image/png', pngBytes(64, 64)); // → 112x112 → 16 + 2 tokens
const image = (url = IMAGE): Item => ({ type: 'image_url', image_url: { url } });
// Never fetched: the count limits are checked before any fetch.
const video = (): Item => ({ type: 'video_url', video_url: { url: 'http://videos.invalid/clip.mp4' } });
const file = (url: string): Item => ({ type: 'file_url', file_url: { url } });
const user = (...items: Item[]): TokenizerBody['messages'] => [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: [{ type: 'text', text: 'Look:' }, ...items] },
];
const times = (n: number, make: () => Item) => Array.from({ length: n }, make);

describe('media counts per series', () => {
  const v46 = VISION_MODELS['gen-4.6v']!;
  const v45 = glmVisionRule('4.5V');

  it('allows 150 images on the 4.6V series and refuses the 151st, naming it', async () => {
    expect(await countMedia(user(...times(150, image)), 'gen-4.6v', v46, {})).toEqual({
      imageTokens: 150 * 18,
      videoTokens: 0,
    });
    await apiError(
      countMedia(user(...times(151, image)), 'gen-4.6v', v46, {}),
      1214,
      'messages[1].content[151]',
      'at most 150 images',
      '4.6V series',
    );
  });

  it('allows 50 images on the 4.5V series and refuses 51', async () => {
    expect((await countMedia(user(...times(50, image)), 'gen-4.5v', v45, {})).imageTokens).toBe(50 * 18);
    await apiError(countMedia(user(...times(51, image)), 'gen-4.5v', v45, {}), 1214, 'at most 50 images');
  });

  it('refuses a third video on 4.6V and a second on 4.5V before fetching any', async () => {
    await apiError(
      countMedia(user(...times(3, video)), 'gen-4.6v', v46, {}),
      1214,
      'messages[1].content[3]',
      'at most 2 videos',
    );
    await apiError(
      countMedia(user(...times(2, video)), 'gen-4.5v', v45, {}),
      1214,
      'messages[1].content[2]',
      'at most 1 video per request',
    );
  });
});

describe('models without vision', () => {
  it('have no media rule; gen-4.6v has one', () => {
    expect(visionRuleFor('gen-4.6')).toBeUndefined();
    expect(visionRuleFor('gen-4.5')).toBeUndefined();
    expect(visionRuleFor('gen-4.6v')).toBe(VISION_MODELS['gen-4.6v']);
  });

  it.each([
    ['image_url', image()],
    ['video_url', video()],
    ['file_url', file('https://files.invalid/a.pdf')],
  ])('refuse %s items, naming the item', async (type, item) => {
    await apiError(
      countMedia(user(item), 'gen-4.6', undefined, {}),
      1214,
      'messages[1].content[1]',
      `gen-4.6 does not accept ${type} input`,
    );
  });

  it('count text-only messages as no media', async () => {
    expect(await countMedia(user(), 'gen-4.5', undefined, {})).toEqual({ imageTokens: 0, videoTokens: 0 });
  });
});

describe('file_url items', () => {
  const rule = VISION_MODELS['gen-4.6v']!;
  const FIELD = 'messages[1].content[1].file_url.url';
  let server: MediaServer;
  beforeAll(async () => {
    server = await startMediaServer({
      '/download': send('application/pdf; charset=binary', Buffer.from('%PDF-1.4')),
      '/archive': send('application/zip', Buffer.from('PK\x03\x04')),
    });
  });
  afterAll(async () => {
    await server.close();
  });
  const check = (url: string) => countMedia(user(file(url)), 'gen-4.6v', rule, { allowHosts: ['127.0.0.1'] });

  it.each(['report.pdf', 'notes.TXT', 'letter.doc', 'letter.docx', 'rows.jsonl', 'sheet.xlsx', 'deck.pptx'])(
    'accept %s by extension, without fetching, as 0 media tokens',
    async (name) => {
      expect(await check(`https://files.invalid/dir/${name}?v=1`)).toEqual({ imageTokens: 0, videoTokens: 0 });
    },
  );

  it('accept a data: URL or a served file by content type', async () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    await expect(check(dataUrl(docx, Buffer.from('PK')))).resolves.toEqual({ imageTokens: 0, videoTokens: 0 });
    await expect(check(`${server.origin}/download`)).resolves.toEqual({ imageTokens: 0, videoTokens: 0 });
  });

  it('refuse other formats, naming the field and the allowed formats', async () => {
    await apiError(check(`${server.origin}/archive`), 1214, FIELD, 'application/zip', 'pdf, txt, word');
    await apiError(check(dataUrl('image/png', pngBytes(2, 2))), 1214, FIELD, 'image/png');
  });
});
